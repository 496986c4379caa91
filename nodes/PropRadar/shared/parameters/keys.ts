import type { IExecuteFunctions } from 'n8n-workflow';

import { keyProblem, keyText, PERSON_KEY_RULE, PROP_ID_RULE, shownValue } from '../ids';
import { fail } from './checked';

interface KeyKind {
	label: string;
	/** The input field the parameter's default reads. */
	field: string;
	rule: string;
	/** An operation whose items carry the key. */
	source: string;
}

const PROP_ID: KeyKind = {
	label: 'Property ID',
	field: 'PropID',
	rule: PROP_ID_RULE,
	source: 'Property > Search',
};
const PERSON_KEY: KeyKind = {
	label: 'Person Key',
	field: 'PersonKey',
	rule: PERSON_KEY_RULE,
	source: 'Person > Get Owners',
};

function readKey(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	kind: KeyKind,
	label = kind.label,
): string {
	// n8n's own check of a text parameter only looks it up in the description; this one checks the key.
	const value = context.getNodeParameter(name, itemIndex, '', { skipValidation: true }) as unknown;
	const text = keyText(value ?? '');
	const problem =
		text === undefined
			? `is a ${Array.isArray(value) ? 'list' : typeof value}, not text`
			: keyProblem(text);
	if (!problem) return text!;
	const item = context.getInputData()[itemIndex]?.json ?? {};
	if (text === '' && !Object.hasOwn(item, kind.field))
		fail(
			context,
			itemIndex,
			`${label}: "" is empty: the input item has no ${kind.field}`,
			`The input item at index ${itemIndex} has no ${kind.field} field (an item from a Manual ` +
				`Trigger has none). Run this node after one that gives ${kind.field}, such as ` +
				`${kind.source}, or enter the key itself.`,
		);
	fail(context, itemIndex, `${label}: "${shownValue(text ?? value)}" ${problem}; ${kind.rule}`);
}

const keyReader =
	(kind: KeyKind, defaultName: string) =>
	(context: IExecuteFunctions, itemIndex: number, name = defaultName, label = kind.label) =>
		readKey(context, itemIndex, name, kind, label);

export const readPropId = keyReader(PROP_ID, 'propId');
export const readPersonKey = keyReader(PERSON_KEY, 'personKey');

export function readPropIds(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string[] {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	const entries = (Array.isArray(value) ? value : [value]).flatMap((entry) =>
		typeof entry === 'string' ? entry.split(',') : [entry],
	);
	const propIds: string[] = [];
	for (const entry of entries) {
		if (entry === undefined || entry === null) continue;
		const text = keyText(entry);
		if (text === '') continue;
		const problem =
			text === undefined
				? `is a ${Array.isArray(entry) ? 'list' : typeof entry}, not text`
				: keyProblem(text);
		if (problem)
			fail(
				context,
				itemIndex,
				`${label}: "${shownValue(text ?? entry)}" ${problem}; ${PROP_ID_RULE}`,
			);
		propIds.push(text!);
	}
	return propIds;
}
