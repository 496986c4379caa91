/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The PropRadar Polling Trigger in a real n8n 2.41 whose webhook address nobody can reach
 * (N8N_WEBHOOK_URL on a documentation-only address): published with Poll Times "Every Minute" on an
 * unmonitored dynamic list, while the sandbox's control route makes new properties match the list.
 * 100 properties that match before a restart of n8n are emitted by the poll n8n runs as it starts
 * again, 101 after it by the next minute's poll, through a dropped read and two 503s (the sandbox's
 * faults): each exactly once, nothing charged, no webhook or automation made, monitoring left off.
 * Deactivated and published again, it emits what matched while it was off. A second workflow in
 * the same n8n watches a static list for Changes in Properties while the sandbox's control route
 * changes watched fields and properties are removed from the list, before, during and after a
 * restart: each change emitted once with its values before and after, each removed property as
 * having left. The first test waits for a poll of the Poll Times (a minute's: n8n polls no more
 * often); the second has n8n poll by publishing the workflow again (`pollNow`): its point is what
 * a poll emits, not when a poll comes. Failed polls are the engine tier's
 * (test/engine/pollingTrigger/pollingTrigger.test.ts, pollingTriggerChanges.test.ts).
 */
import { isDeepStrictEqual } from 'node:util';

import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, N8nHost, RunningN8n } from '../../scripts/n8n-host';
import { startN8n, stopN8n, waitFor } from '../support/realN8n';
import { TOKENS } from '../support/sandboxApi';
import { until } from '../support/until';
import * as polling from '../support/pollingWorkflow';

jest.setTimeout(480_000);

const WORKFLOW_ID = 'PropRadarE2ePoll01';
const NODE = 'New properties';
const CHANGES_ID = 'PropRadarE2ePoll02';
const CHANGES_NODE = 'Changed properties';
const WATCHED = ['ListingStatus', 'ForeclosureStage', 'LastTransferRecDate', 'ListingPrice'];
// The static list Changes in Properties watches: 30 of the sandbox's seeded properties.
const WATCHED_PROPERTIES = Array.from({ length: 30 }, (_, i) => propId(201 + i));
// Nothing answers there (RFC 5737): PropRadar could not call this n8n.
const UNREACHABLE = { N8N_WEBHOOK_URL: 'http://192.0.2.1/' };

let sandbox: RunningSandbox;
let prepared: N8nHost;
let host: RunningN8n;
let client: N8nClient;
let listId: number;
let automationBefore: Record<string, unknown>;
let watchedListId: number;
let watchedAutomationBefore: Record<string, unknown>;

function propId(n: number): string {
	return `P${String(n).padStart(6, '0')}`;
}

const sandboxCall = (method: string, path: string, body?: unknown) =>
	polling.sandboxCall(sandbox.url, method, path, body);

/** `count` new properties that match the polled list, one after the other. */
const newMatches = (count: number) => polling.newMatches(sandbox.url, listId, count);

const itemsPath = () => `/v1/lists/${listId}/items`;

type Values = Record<string, Record<string, unknown>>;

/** The watched list's properties with their watched values, as a free read of its items gives them. */
async function watchedValues(): Promise<Values> {
	const { results } = (await sandboxCall(
		'GET',
		`/v1/lists/${watchedListId}/items?Fields=PropID,${WATCHED.join(',')}&Limit=1000`,
	)) as { results: Array<Record<string, unknown>> };
	return Object.fromEntries(
		results.map((record) => [
			String(record.PropID),
			Object.fromEntries(WATCHED.map((field) => [field, record[field] ?? null])),
		]),
	);
}

/**
 * What a user expects Changes in Properties to emit between two reads of the list: each property
 * whose watched values differ, with those fields before and after, and each property gone from it.
 */
function changesBetween(before: Values, after: Values): Array<Record<string, unknown>> {
	const found: Array<Record<string, unknown>> = [];
	for (const [PropID, was] of Object.entries(before)) {
		const now = after[PropID];
		if (!now) {
			found.push({ PropID, change: 'left', before: was });
			continue;
		}
		const changed = WATCHED.filter((field) => !isDeepStrictEqual(was[field], now[field]));
		if (changed.length > 0)
			found.push({
				PropID,
				change: 'changed',
				before: Object.fromEntries(changed.map((field) => [field, was[field]])),
				after: Object.fromEntries(changed.map((field) => [field, now[field]])),
			});
	}
	return found;
}

async function changeProperty(id: string, change: string, to?: unknown): Promise<void> {
	await sandboxCall('POST', '/_sandbox/simulate/change', {
		PropID: id,
		change,
		...(to === undefined ? {} : { to }),
	});
}

/** Removes properties from the watched list, as a user does in PropRadar (a free API call). */
async function removeFromList(ids: string[]): Promise<void> {
	for (const id of ids) await sandboxCall('DELETE', `/v1/lists/${watchedListId}/items/${id}`);
}

const byContent = (items: Array<Record<string, unknown>>) =>
	items.map((item) => JSON.stringify(item)).sort();

/** What a workflow's trigger emitted so far. */
const emittedSoFar = (workflowId = WORKFLOW_ID, node = NODE) =>
	polling.emittedSoFar(client, workflowId, node);

/** A workflow's executions once they have emitted `count` items and none is still to end. */
const emittedAtLeast =
	(count: number, workflowId = WORKFLOW_ID, node = NODE) =>
	() =>
		polling.emittedAtLeast(client, workflowId, node, count);

const statuses = ({ executions }: polling.Emitted) => executions.map(({ status }) => status);

/** The workflow's static data once its activation's poll has written it. */
const activationPolled = (workflowId: string, node: string, key: string) =>
	waitFor("the activation's poll", () => polling.staticDataOf(client, workflowId, node, key));

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	listId = await polling.dynamicList(sandbox.url, 'e2e: polled');
	automationBefore = (
		(await sandboxCall('GET', `/v1/lists/${listId}/automations`)) as {
			results: Array<Record<string, unknown>>;
		}
	).results[0];
	watchedListId = (
		(await sandboxCall('POST', '/v1/lists', {
			ListName: 'e2e: watched',
			ListType: 'static',
		})) as { results: Array<{ ListID: number }> }
	).results[0].ListID;
	await sandboxCall('PUT', `/v1/lists/${watchedListId}/items`, {
		Criteria: [{ name: 'PropID', value: WATCHED_PROPERTIES }],
	});
	watchedAutomationBefore = (
		(await sandboxCall('GET', `/v1/lists/${watchedListId}/automations`)) as {
			results: Array<Record<string, unknown>>;
		}
	).results[0];
	const workflow = polling.pollingWorkflow(WORKFLOW_ID, 'e2e: polling trigger', NODE, listId, {
		fields: { include: ['City'] },
	});
	const changesWorkflow = polling.pollingWorkflow(
		CHANGES_ID,
		'e2e: polling trigger, changes',
		CHANGES_NODE,
		watchedListId,
		{ watch: 'changes', watchedFields: WATCHED },
	);
	({ prepared, host, client } = await startN8n(
		{ sandboxUrl: sandbox.url, workflows: [workflow, changesWorkflow] },
		UNREACHABLE,
	));
}, 300_000);

afterAll(async () => {
	await stopN8n(host, sandbox);
});

test('published with no reachable webhook address: 201 properties that enter the list, before and after a restart of n8n and through dropped and failed reads, are each emitted exactly once, those that enter while it is deactivated at its next activation, and nothing is charged or wired', async () => {
	await n8n.activate(client, WORKFLOW_ID);
	// n8n 2.41 answers the activation before it activates the triggers (its publication outbox):
	// the activation's poll has run once n8n has written where the trigger starts. It emitted nothing.
	await activationPolled(WORKFLOW_ID, NODE, 'since');
	expect(statuses(await emittedSoFar())).toEqual([]);
	const beforeRestart = await newMatches(100);
	// The first read of the poll at start loses its connection (the node reads it again).
	await sandboxCall('POST', '/_sandbox/faults', { path: itemsPath(), method: 'GET', drop: true });

	await host.stop();
	host = await n8n.start({ ...prepared, env: { ...prepared.env, ...UNREACHABLE } });
	client = await n8n.login(host);
	// n8n polls once as it activates the workflow at start: what entered meanwhile.
	const atStart = await waitFor('the poll at start', emittedAtLeast(100));
	expect(atStart.propIds).toEqual(beforeRestart);

	const afterRestart = await newMatches(101);
	// The next poll's read is answered 503 twice before it goes through.
	await sandboxCall('POST', '/_sandbox/faults', {
		path: itemsPath(),
		method: 'GET',
		status: 503,
		count: 2,
	});
	// Poll Times "Every Minute": the next poll comes within a minute (two, if one came while they matched).
	const all = await until("the next minute's poll", emittedAtLeast(201), 200_000, 1_000);
	const added = [...beforeRestart, ...afterRestart];
	expect(all.propIds).toHaveLength(added.length);
	expect(new Set(all.propIds)).toEqual(new Set(added));
	expect(statuses(all).every((status) => status === 'success')).toBe(true);

	// Deactivated, three match meanwhile, published again: n8n keeps the static data, so the
	// activation's poll emits those three, once.
	await n8n.deactivate(client, WORKFLOW_ID);
	const whileOff = await newMatches(3);
	await n8n.activate(client, WORKFLOW_ID);
	const again = await waitFor('the poll at activation', emittedAtLeast(204));
	expect(again.propIds).toHaveLength(204);
	expect(new Set(again.propIds)).toEqual(new Set([...added, ...whileOff]));

	// Only free reads: nothing charged, no webhook, the list's automation untouched and unmonitored.
	const charges = (await sandboxCall('GET', `/_sandbox/charges?token=${TOKENS.main}`)) as {
		log: unknown[];
	};
	expect(charges.log).toEqual([]);
	expect(
		((await sandboxCall('GET', '/v1/integrations/webhooks')) as { results: unknown[] }).results,
	).toEqual([]);
	const list = (await sandboxCall('GET', `/v1/lists/${listId}?Fields=isMonitored`)) as {
		results: Array<{ isMonitored: number }>;
	};
	expect(list.results[0].isMonitored).toBe(0);
	const automation = (await sandboxCall('GET', `/v1/lists/${listId}/automations`)) as {
		results: Array<Record<string, unknown>>;
	};
	expect(automation.results[0]).toEqual(automationBefore);
});

test('Changes in Properties, published with no reachable webhook address: each change of a watched field is emitted once with its values before and after, before, during and after a restart of n8n, each property removed from the list as having left it, and nothing is charged or wired', async () => {
	const [w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11] = WATCHED_PROPERTIES;
	const [gone1, gone2, gone3, gone4] = WATCHED_PROPERTIES.slice(20);
	await n8n.activate(client, CHANGES_ID);
	await activationPolled(CHANGES_ID, CHANGES_NODE, 'values');
	expect(statuses(await emittedSoFar(CHANGES_ID, CHANGES_NODE))).toEqual([]);
	const atStart = await watchedValues();
	expect(Object.keys(atStart).sort()).toEqual(WATCHED_PROPERTIES);

	// Each change moves a field to its next value (the sandbox's cycle), so each one is a change.
	// While n8n runs (a minute's poll may come in between: each property changes once here).
	await changeProperty(w0, 'listing');
	await changeProperty(w1, 'foreclosure');
	await changeProperty(w2, 'transfer');
	await changeProperty(w3, 'price', 123_000);
	await removeFromList([gone1, gone2]);
	await host.stop();
	// While n8n is stopped: one property changed twice, its two changes emitted as one.
	await changeProperty(w4, 'price', 99_000);
	await changeProperty(w4, 'listing');
	await changeProperty(w5, 'foreclosure');
	await changeProperty(w6, 'transfer');
	await changeProperty(w7, 'listing');
	await removeFromList([gone3]);
	const beforeRestart = await watchedValues();
	const expectedBefore = changesBetween(atStart, beforeRestart);
	expect(expectedBefore.map((item) => item.PropID).sort()).toEqual(
		[w0, w1, w2, w3, w4, w5, w6, w7, gone1, gone2, gone3].sort(),
	);

	host = await n8n.start({ ...prepared, env: { ...prepared.env, ...UNREACHABLE } });
	client = await n8n.login(host);
	const emitted = await waitFor(
		'the poll at start',
		emittedAtLeast(expectedBefore.length, CHANGES_ID, CHANGES_NODE),
	);
	expect(byContent(emitted.items)).toEqual(byContent(expectedBefore));
	expect(emitted.items).toContainEqual({
		PropID: w3,
		change: 'changed',
		before: { ListingPrice: atStart[w3].ListingPrice },
		after: { ListingPrice: 123_000 },
	});
	expect(emitted.items).toContainEqual({ PropID: gone3, change: 'left', before: atStart[gone3] });

	// After the restart: a property changed again is emitted again, from its last emitted values.
	await changeProperty(w3, 'price', 111_000);
	await changeProperty(w8, 'foreclosure');
	await changeProperty(w9, 'listing');
	await changeProperty(w10, 'transfer');
	await changeProperty(w11, 'price', 250_000);
	await removeFromList([gone4]);
	const expectedAfter = changesBetween(beforeRestart, await watchedValues());
	expect(expectedAfter.map((item) => item.PropID).sort()).toEqual(
		[w3, w8, w9, w10, w11, gone4].sort(),
	);
	// The next poll, now (the first test waits for the minute's).
	await polling.pollNow(client, CHANGES_ID);
	const all = await waitFor(
		'the poll at activation',
		emittedAtLeast(expectedBefore.length + expectedAfter.length, CHANGES_ID, CHANGES_NODE),
	);
	expect(byContent(all.items)).toEqual(byContent([...expectedBefore, ...expectedAfter]));
	expect(all.items).toContainEqual({
		PropID: w3,
		change: 'changed',
		before: { ListingPrice: 123_000 },
		after: { ListingPrice: 111_000 },
	});
	expect(statuses(all).every((status) => status === 'success')).toBe(true);

	// Only free reads: nothing charged, no webhook, the list's automation untouched and unmonitored.
	const charges = (await sandboxCall('GET', `/_sandbox/charges?token=${TOKENS.main}`)) as {
		log: unknown[];
	};
	expect(charges.log).toEqual([]);
	expect(
		((await sandboxCall('GET', '/v1/integrations/webhooks')) as { results: unknown[] }).results,
	).toEqual([]);
	const list = (await sandboxCall('GET', `/v1/lists/${watchedListId}?Fields=isMonitored`)) as {
		results: Array<{ isMonitored: number }>;
	};
	expect(list.results[0].isMonitored).toBe(0);
	const automation = (await sandboxCall('GET', `/v1/lists/${watchedListId}/automations`)) as {
		results: Array<Record<string, unknown>>;
	};
	expect(automation.results[0]).toEqual(watchedAutomationBefore);
});
