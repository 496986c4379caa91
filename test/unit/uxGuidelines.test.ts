/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The mechanical rules of n8n's UX guidelines, over every property of every node and the credential
 * as they are built (factories included, which n8n's lint does not read): display names and
 * dropdown titles in Title Case as n8n's lint writes it (eslint-plugin-n8n-nodes-base's
 * `titleCase`, with its exceptions), a boolean's description starting with "Whether", the access
 * token a password field, and every resource locator starting at "From List".
 */
import { createRequire } from 'node:module';
import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';

import { PropRadarApi } from '../../credentials/PropRadarApi.credentials';
import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { PropRadarPollingTrigger } from '../../nodes/PropRadar/PropRadarPollingTrigger.node';
import { PropRadarTrigger } from '../../nodes/PropRadar/PropRadarTrigger.node';

// n8n's lint's own title case, from the copy of `title-case` its rule uses.
const fromLintPlugin = createRequire(require.resolve('eslint-plugin-n8n-nodes-base'));
const { titleCase } = fromLintPlugin('title-case') as { titleCase: (text: string) => string };

/** Every property of a description, with where it is, those nested in collections and fixed collections too. */
function walk(properties: INodeProperties[], path: string): Array<[string, INodeProperties]> {
	return properties.flatMap((property) => {
		const here = `${path} > ${property.displayName}`;
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option)
				return walk((option as INodePropertyCollection).values, `${here} > ${option.displayName}`);
			return 'type' in option ? walk([option as INodeProperties], here) : [];
		});
		return [[here, property] as [string, INodeProperties], ...nested];
	});
}

const DESCRIPTIONS: Array<[string, INodeProperties[]]> = [
	['PropRadar', new PropRadar().description.properties],
	['PropRadar Trigger', new PropRadarTrigger().description.properties],
	['PropRadar Polling Trigger', new PropRadarPollingTrigger().description.properties],
	['PropRadar API', (new PropRadarApi() as ICredentialType).properties],
];
const every = DESCRIPTIONS.flatMap(([name, properties]) => walk(properties, name));

/**
 * Title Case as n8n's lint checks it (node-param-display-name-miscased): names ending in "or" (its
 * "Name or ID" rule) are left alone. A choice may be, or end with in brackets, the API's name of
 * it: a code shown as it is sent (`_links`, `Owner Overview (overview)`).
 */
function miscased(text: string, value?: unknown): boolean {
	if (text.toLowerCase().endsWith('or') || text === value) return false;
	const code = typeof value === 'string' ? ` (${value})` : undefined;
	const words = code && text.endsWith(code) ? text.slice(0, -code.length) : text;
	return titleCase(words) !== words;
}

test("the check refuses what n8n's lint refuses, and lets codes through", () => {
	expect(miscased('Max cost (USD)')).toBe(true);
	expect(miscased('Owner overview (overview)', 'overview')).toBe(true);
	expect(miscased('Owner Overview (overview)', 'overview')).toBe(false);
	expect(miscased('Status Level Names or IDs')).toBe(false);
});

test('the walk reaches nested fields: the Fields picker, the criteria rows, the trigger options', () => {
	const names = every.map(([path]) => path);
	expect(names).toContain('PropRadar > Fields > Fieldsets');
	expect(names.some((path) => path.startsWith('PropRadar > Criteria > '))).toBe(true);
	expect(names.length).toBeGreaterThan(200);
});

test("display names are Title Case (n8n's lint rule, over the built descriptions)", () => {
	const wrong = every
		.filter(([, property]) => property.type !== 'notice' && miscased(property.displayName))
		.map(([path]) => path);
	expect(wrong).toEqual([]);
});

test('dropdown titles are Title Case', () => {
	const wrong = every.flatMap(([path, property]) =>
		property.type === 'options' || property.type === 'multiOptions'
			? ((property.options ?? []) as INodePropertyOptions[])
					.filter((option) => miscased(option.name, option.value))
					.map((option) => `${path}: ${option.name}`)
			: [],
	);
	expect(wrong).toEqual([]);
});

test('every boolean has a description that starts with "Whether"', () => {
	const wrong = every
		.filter(
			([, property]) =>
				property.type === 'boolean' && !String(property.description ?? '').startsWith('Whether'),
		)
		.map(([path, property]) => `${path}: ${String(property.description)}`);
	expect(wrong).toEqual([]);
});

test('the access token is a password field', () => {
	const token = every.find(([path]) => path === 'PropRadar API > Access Token')?.[1];
	expect(token?.typeOptions?.password).toBe(true);
});

test('every resource locator with a list to pick from starts at "From List"', () => {
	const locators = every.filter(([, property]) => property.type === 'resourceLocator');
	expect(locators.length).toBeGreaterThan(0);
	const wrong = locators
		.filter(
			([, property]) =>
				property.modes?.some((mode) => mode.name === 'list') &&
				(property.default as { mode?: string }).mode !== 'list',
		)
		.map(([path]) => path);
	expect(wrong).toEqual([]);
});

test('every operation has an action and a description in sentence case, which say more than its name', () => {
	const wrong = every
		.filter(([, property]) => property.name === 'operation')
		.flatMap(([path, property]) =>
			((property.options ?? []) as INodePropertyOptions[])
				.filter(
					(option) =>
						![option.action, option.description].every(
							(text) =>
								typeof text === 'string' &&
								/^[A-Z][^A-Z]/.test(text) &&
								text !== option.name &&
								!/[.]$/.test(text),
						),
				)
				.map((option) => `${path}: ${option.name}`),
		);
	expect(wrong).toEqual([]);
});
