/**
 * The polling trigger against the sandbox's variants that touch its reads of list items (issue 59,
 * docs/api.md "Every guess"): pages cut short (`short-page`), answers without `resultCount`
 * (`no-result-count`), unknown fields (`extra-fields`) and a lower Limit maximum (`low-limit`).
 * Each property added to the list is emitted exactly once, across polls and a restart of n8n; none
 * is lost, none starts the workflow twice, nothing is charged.
 */
import { sleep, type IDataObject } from 'n8n-workflow';

import type { VariantName } from '../../../sandbox/types';
import { OVERLAP_MS } from '../../../nodes/PropRadar/pollingTrigger/newProperties';
import { TOKENS } from '../../support/harness';
import { api, control, listRef, sandboxCharges, useEngineSandbox } from '../../support/helpers';
import { PollingWorkflow, type PollOutcome } from '../../support/pollHarness';

const sb = useEngineSandbox();

async function useVariants(variants: VariantName[]): Promise<void> {
	const set = await control(sb, 'PUT', '/_sandbox/variants', { variants });
	if (set.status !== 200) throw new Error(`variants: ${set.status} ${JSON.stringify(set.body)}`);
}
afterEach(() => useVariants([]));

const propId = (n: number) => `P${String(n).padStart(6, '0')}`;
const emitted = (outcome: PollOutcome) => (outcome.items ?? []).map((item) => String(item.PropID));

async function staticList(name: string): Promise<number> {
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: name,
		ListType: 'static',
	});
	return created.body.results[0].ListID;
}

/** Adds properties `first`..`first + count - 1` to a static list, as another PropRadar user would. */
async function addProperties(listId: number, first: number, count: number): Promise<string[]> {
	const ids = Array.from({ length: count }, (_, i) => propId(first + i));
	const answer = await api(sb, 'PUT', `/v1/lists/${listId}/items`, {
		Criteria: [{ name: 'PropID', value: ids }],
	});
	if (answer.status !== 200) throw new Error(`PUT items: ${JSON.stringify(answer.body)}`);
	return ids;
}

/** Duplicates and losses among what was emitted, against what was added. */
function tally(added: string[], emittedIds: string[]) {
	return {
		lost: added.filter((id) => !emittedIds.includes(id)),
		duplicated: emittedIds.filter((id, index) => emittedIds.indexOf(id) !== index),
	};
}

/**
 * A list of 45 properties before activation, then rounds of 25 added (more than a short page), a
 * poll each, and a restart of n8n in the middle, all under `variant`: what was added and emitted.
 */
async function pollUnder(variant: VariantName, name: string, first: number) {
	const listId = await staticList(name);
	const charges = (await sandboxCharges(sb, TOKENS.main)).log.length;
	await addProperties(listId, first, 45);
	await useVariants([variant]);
	const workflow = new PollingWorkflow(
		{ baseUrl: sb.url, accessToken: TOKENS.main },
		{ listId: listRef(listId) },
	);
	const activation = await workflow.activate();
	const added: string[] = [];
	const outcomes: PollOutcome[] = [];
	let next = first + 45;
	for (let round = 0; round < 4; round++) {
		added.push(...(await addProperties(listId, next, 25)));
		next += 25;
		outcomes.push(round === 2 ? await workflow.restart() : await workflow.poll());
	}
	outcomes.push(await workflow.poll());
	return { listId, workflow, activation, added, outcomes, charges };
}

describe.each([
	['short-page', 7001],
	['no-result-count', 7201],
	['extra-fields', 7401],
] as Array<[VariantName, number]>)('variant %s', (variant, first) => {
	test('every property added after activation is emitted exactly once, across polls and a restart; nothing charged', async () => {
		const run = await pollUnder(variant, `poll under ${variant}`, first);
		expect(run.activation).toEqual({});
		for (const outcome of run.outcomes) expect(outcome.error).toBeUndefined();
		const emittedIds = run.outcomes.flatMap(emitted);
		expect(tally(run.added, emittedIds)).toEqual({ lost: [], duplicated: [] });
		// The 45 on the list before activation are not new.
		expect(emittedIds).toHaveLength(run.added.length);
		expect((await sandboxCharges(sb, TOKENS.main)).log.length).toBe(run.charges);
		if (variant === 'extra-fields') {
			const items = run.outcomes.flatMap((outcome) => outcome.items ?? []) as IDataObject[];
			expect(items.every((item) => item.ServiceExtra === 'record')).toBe(true);
		}
	});
});

describe('variant low-limit: a Limit above 20 refused', () => {
	test('each poll fails naming the Limit and emits nothing; once the service takes it, each property added is emitted once', async () => {
		const run = await pollUnder('low-limit', 'poll under low-limit', 7601);
		const failed = [run.activation, ...run.outcomes];
		for (const outcome of failed) {
			expect(outcome.items).toBeUndefined();
			expect(
				`${outcome.error?.message} ${String((outcome.error as { description?: string })?.description)}`,
			).toMatch(/Limit/);
		}
		await useVariants([]);
		// The activation failed: n8n activates the workflow again once the service takes the read.
		expect(await run.workflow.activate()).toEqual({});
		const added = await addProperties(run.listId, 7801, 25);
		const emittedIds = emitted(await run.workflow.poll());
		expect(tally(added, emittedIds)).toEqual({ lost: [], duplicated: [] });
		expect(emittedIds).toHaveLength(added.length);
	});
});

test("short-page: with the page size learned, a page of the service's own size is still read on; nothing is lost", async () => {
	const listId = await staticList('poll under short-page, reads once');
	const older = await addProperties(listId, 8001, 45);
	await useVariants(['short-page']);
	const workflow = new PollingWorkflow(
		{ baseUrl: sb.url, accessToken: TOKENS.main },
		{ listId: listRef(listId) },
	);
	expect(await workflow.activate()).toEqual({});
	await sleep(1_500);
	// n8n's clock set so that the polls' overlap begins after the 45 older items.
	const realNow = Date.now.bind(Date);
	const offset = Date.now() - 1_000 + OVERLAP_MS - realNow();
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
	try {
		const added = await addProperties(listId, 8101, 25);
		const emittedIds = emitted(await workflow.poll());
		expect(tally(added, emittedIds)).toEqual({ lost: [], duplicated: [] });
		expect(emittedIds).not.toEqual(expect.arrayContaining(older));
		const logged = async () =>
			(await control<{ results: unknown[] }>(sb, 'GET', '/_sandbox/requests')).body.results.length;
		const from = await logged();
		await sleep(10);
		expect(await workflow.poll()).toEqual({});
		// The overlap holds the 25: a page of 20, the service's size, is read on.
		expect((await logged()) - from).toBeGreaterThan(1);
	} finally {
		clock.mockRestore();
	}
});
