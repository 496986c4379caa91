/**
 * What the e2e suites of the PropRadar Polling Trigger (pollingTrigger.test.ts in one n8n,
 * pollingQueue.test.ts in queue mode) share: the sandbox's list and its new matches, the workflow
 * of one polling trigger, what its executions emitted, and the two ways n8n polls that the suites
 * wait for: the Poll Times (a minute at the least: n8n-workflow's `isSubMinuteCron` refuses a
 * shorter one at activation) and the poll n8n runs as it activates the workflow.
 */
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient } from '../../scripts/n8n-host';
import { call, TOKENS } from './sandboxApi';
import { outputOf, storedExecution } from './storedExecution';

export const POLLING_TRIGGER = 'n8n-nodes-propradar.propRadarPollingTrigger';

/** A call of the sandbox's API as its main account, or of its control routes (`/_sandbox/…`, no token); its answer's body. */
export async function sandboxCall(
	sandboxUrl: string,
	method: string,
	path: string,
	body?: unknown,
): Promise<unknown> {
	const token = path.startsWith('/_sandbox') ? null : TOKENS.main;
	return (await call(sandboxUrl, method, path, { body, token })).body;
}

/** A new dynamic list of the properties in ZIP 97202 (the sandbox's control route makes properties match it); its ListID. */
export async function dynamicList(sandboxUrl: string, name: string): Promise<number> {
	const created = (await sandboxCall(sandboxUrl, 'POST', '/v1/lists', {
		ListName: name,
		ListType: 'dynamic',
		Criteria: [{ name: 'ZipFive', value: [97202] }],
	})) as { results: Array<{ ListID: number }> };
	return created.results[0].ListID;
}

/** `count` new properties that match the list, one after the other; their PropIDs. */
export async function newMatches(
	sandboxUrl: string,
	listId: number,
	count: number,
): Promise<string[]> {
	const propIds: string[] = [];
	for (let i = 0; i < count; i++) {
		const match = (await sandboxCall(sandboxUrl, 'POST', '/_sandbox/simulate/new-match', {
			ListID: listId,
		})) as { PropID: string };
		propIds.push(match.PropID);
	}
	return propIds;
}

/** A workflow of one PropRadar Polling Trigger, `node`, polling list `listId` every minute, with `parameters` added. */
export function pollingWorkflow(
	id: string,
	name: string,
	node: string,
	listId: number,
	parameters: Record<string, unknown> = {},
) {
	return {
		id,
		name,
		nodes: [
			{
				id: 'poll',
				name: node,
				type: POLLING_TRIGGER,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					listId: { __rl: true, mode: 'id', value: String(listId) },
					options: {},
					...parameters,
				},
				credentials: { propRadarApi: n8n.CREDENTIAL },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

export interface Emitted {
	/** The workflow's executions, oldest first. */
	executions: Array<{ id: string; status: string }>;
	/** Every item the trigger emitted in the successful ones, in order. */
	items: Array<Record<string, unknown>>;
	propIds: string[];
}

/** What the executions of a workflow's trigger `node` emitted so far. */
export async function emittedSoFar(
	client: N8nClient,
	workflowId: string,
	node: string,
): Promise<Emitted> {
	const { results } = (await client.rest(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`,
	)) as { results: Array<{ id: string; status: string }> };
	const executions = [...results].reverse();
	const items: Array<Record<string, unknown>> = [];
	for (const { id, status } of executions)
		if (status === 'success') items.push(...outputOf(await storedExecution(client, id), node));
	return { executions, items, propIds: items.map((item) => String(item.PropID)) };
}

/** What the workflow emitted, once it is at least `count` items and no execution is still to end; else undefined. */
export async function emittedAtLeast(
	client: N8nClient,
	workflowId: string,
	node: string,
	count: number,
): Promise<Emitted | undefined> {
	const emitted = await emittedSoFar(client, workflowId, node);
	const ending = emitted.executions.some(({ status }) =>
		['new', 'running', 'waiting'].includes(status),
	);
	return emitted.items.length >= count && !ending ? emitted : undefined;
}

/**
 * The trigger's static data under `key`, once n8n has stored it: n8n 2.41 answers an activation
 * before it activates the triggers (its publication outbox), so that the poll it runs as it
 * activates them is over once it has written where the trigger starts.
 */
export async function staticDataOf(
	client: N8nClient,
	workflowId: string,
	node: string,
	key: string,
): Promise<unknown> {
	const { staticData } = (await client.rest('GET', `/workflows/${workflowId}`)) as {
		staticData: Record<string, Record<string, unknown>> | null;
	};
	return staticData?.[`node:${node}`]?.[key];
}

/**
 * Has n8n poll the workflow now, without waiting for its Poll Times: deactivated and published
 * again, n8n polls once as it activates the trigger (n8n-core 2.41's
 * `ActiveWorkflowTriggers.activatePollTrigger`, before it schedules the Poll Times) and keeps the
 * static data, so the poll goes on from where the last one left off. A poll of the Poll Times
 * that comes first is as good: what entered the list is emitted once either way.
 */
export async function pollNow(client: N8nClient, workflowId: string): Promise<void> {
	await n8n.deactivate(client, workflowId);
	await n8n.activate(client, workflowId);
}
