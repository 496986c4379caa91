/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The criteria builder's "Matching Properties" line in the real editor (n8n with the packed package,
 * Debian chromium driven by playwright-core): it follows the criteria as a user edits them, with the
 * node's panel left open. The line is an `options` parameter whose one option is loaded by
 * `getCriteriaMatchCount`; n8n's editor loads it again only when the text it builds from the
 * parameters named in `loadOptionsDependsOn` changes (docs/operations.md, "Matching Properties").
 *
 * The screenshot goes to .tools/screenshots/match-count.png; `npm run screenshots` copies it to
 * docs/screenshots for the README.
 */
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { editor, SCREENSHOTS, SHOWN, startEditor, stopN8n } from '../support/realN8n';
import { call } from '../support/sandboxApi';
import { propRadarNode, runByHand } from '../support/workflows';
import { until } from '../support/until';
import type { RunningN8n } from '../../scripts/n8n-host';

jest.setTimeout(300_000);

/** A workflow run by hand whose one PropRadar node is Property > Search with these builder criteria. */
const searchWorkflow = (id: string, name: string, criteria: Record<string, unknown>) =>
	runByHand(
		{ id, name },
		propRadarNode('search', 'Search', [240, 0], {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'builder',
			criteria,
			chargeMode: 'preview',
		}),
	);

let sandbox: RunningSandbox;
let host: RunningN8n;
let browser: Browser;
let page: Page;

/** The line the node shows for `count` matches (nodes/PropRadar/actions/methods/loadOptions.ts). */
const countLine = (count: number) =>
	`${count.toLocaleString('en-US')} ${count === 1 ? 'property matches' : 'properties match'} now (free count, nothing bought)`;

/** The sandbox's own count for these criteria, from the same free preview the node asks for. */
async function count(criteria: unknown[]): Promise<number> {
	const answer = await call(
		sandbox.url,
		'POST',
		'/v1/properties?Purchase=0&Limit=1&Fields=PropID',
		{ body: { Criteria: criteria } },
	);
	return answer.body.totalResultCount as number;
}

const stateCount = (state: string) => count([{ name: 'State', value: [state] }]);

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	({ host, browser, page } = await startEditor({
		sandboxUrl: sandbox.url,
		workflows: [
			searchWorkflow('PropRadarE2eCtOR', 'e2e: match count, Oregon', {
				criterion: [{ name: 'State', values: 'OR' }],
			}),
			searchWorkflow('PropRadarE2eCt00', 'e2e: match count, no criteria', {}),
		],
	}));
});

afterAll(async () => {
	await browser?.close();
	await stopN8n(host, sandbox);
});

const { panel, openWorkflow, openNode } = editor(
	() => page,
	() => host.url,
	'match-count-failed.png',
);

async function openSearchNode(workflowId: string): Promise<void> {
	await openWorkflow(workflowId, 'Search');
	await openNode('Search');
}

/** The text the Matching Properties field shows (n8n shows the chosen option's name in its input). */
async function matchingProperties(): Promise<string> {
	const field = panel()
		.locator('[data-test-id="parameter-input-criteriaMatchCount"] input')
		.first();
	return field.inputValue();
}

/** Waits until Matching Properties shows `expected`, and says what it showed last when it does not. */
async function expectMatchingProperties(expected: string | RegExp): Promise<string> {
	let last = '';
	try {
		return await until(
			`Matching Properties showing ${String(expected)}`,
			async () => {
				last = await matchingProperties();
				return (typeof expected === 'string' ? last === expected : expected.test(last))
					? last
					: undefined;
			},
			SHOWN.timeout,
			250,
		);
	} catch {
		throw new Error(
			`Matching Properties shows "${last}", not ${typeof expected === 'string' ? `"${expected}"` : String(expected)}, with the panel open`,
		);
	}
}

/**
 * Replaces the text of an input as a user pasting it does: a click into it, select all, then the
 * text in one input event. Typed key by key on a slow machine, n8n's editor may count a partial
 * value and skip the edit that comes while that count loads (docs/operations.md).
 */
async function retype(input: ReturnType<Page['locator']>, text: string): Promise<void> {
	await input.click();
	await page.keyboard.press('ControlOrMeta+a');
	await page.keyboard.insertText(text);
}

test("changing State from OR to WA in the open panel changes Matching Properties to the count for WA, and a second row's criterion counts too", async () => {
	const [oregon, washington] = [await stateCount('OR'), await stateCount('WA')];
	expect(oregon).not.toBe(washington);

	await openSearchNode('PropRadarE2eCtOR');
	const before = await expectMatchingProperties(countLine(oregon));

	const values = panel().locator('input[placeholder="OR, WA"]');
	// The rows may be drawn after the count: wait for the row's Values before counting them.
	await values.first().waitFor(SHOWN);
	await expect(values.count()).resolves.toBe(1);
	await retype(values, 'WA');
	await expect(values.inputValue()).resolves.toBe('WA');

	const after = await expectMatchingProperties(countLine(washington));
	// The panel was never closed.
	expect(await panel().isVisible()).toBe(true);
	await panel()
		.locator('[data-test-id="parameter-input-criteriaMatchCount"]')
		.scrollIntoViewIfNeeded();
	await page.screenshot({ path: join(SCREENSHOTS, 'match-count.png') });
	process.stdout.write(`Matching Properties: before "${before}", after State WA "${after}"\n`);

	// Back to OR; then a second row, chosen in its Criterion list as a user does: Absentee Owner.
	await retype(values, 'OR');
	await expectMatchingProperties(countLine(oregon));
	const absentee = await count([
		{ name: 'State', value: ['OR'] },
		{ name: 'isSameMailingOrExempt', value: [0] },
	]);
	expect(absentee).toBeLessThan(oregon);
	await panel().locator('[data-test-id="fixed-collection-add"]').getByText('Add Criterion').click();
	await expectMatchingProperties(
		/^Not counted yet: Criteria row 2 \(State\): enter at least one value/,
	);
	await panel().locator('[data-test-id="parameter-input-name"]').nth(1).click();
	await page.getByRole('option', { name: /^Absentee Owner/ }).click();
	const second = await expectMatchingProperties(countLine(absentee));
	process.stdout.write(`Matching Properties: a second row, Absentee Owner, "${second}"\n`);
});

test('adding a first criterion replaces "Add a criterion…", and typing its value gives the count', async () => {
	const oregon = await stateCount('OR');
	await openSearchNode('PropRadarE2eCt00');
	await expectMatchingProperties('Add a criterion to count the properties that match');

	await panel().locator('[data-test-id="fixed-collection-add"]').getByText('Add Criterion').click();
	// The new row is State with no value yet: the line says what is missing.
	const values = panel().locator('input[placeholder="OR, WA"]');
	await values.waitFor(SHOWN);
	const empty = await expectMatchingProperties(/^Not counted yet: .*enter at least one value/);

	await retype(values, 'OR');
	const counted = await expectMatchingProperties(countLine(oregon));
	process.stdout.write(
		`Matching Properties: a first criterion "${empty}", then State OR "${counted}"\n`,
	);

	// Criteria Mode JSON: the line counts the JSON field's criteria (its default, until edited).
	const json = await count([
		{ name: 'State', value: ['OR'] },
		{ name: 'AvailableEquity', value: [[100000, null]] },
	]);
	await panel().locator('[data-test-id="parameter-input-criteriaMode"]').click();
	await page.getByRole('option', { name: /^JSON/ }).click();
	const inJson = await expectMatchingProperties(countLine(json));
	expect(await panel().isVisible()).toBe(true);
	process.stdout.write(`Matching Properties: Criteria Mode JSON "${inJson}"\n`);
});
