/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * What the e2e tier's workflows are made of: the example files as they are, and the nodes the
 * tests' own workflows share (the manual trigger, items made from rows, a PropRadar node or trigger
 * on the sandbox credential `prepare` imports).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import * as n8n from '../../scripts/n8n-host';

const EXAMPLES = join(__dirname, '..', '..', 'examples');

/** The example workflow in examples/`file`. */
export const example = <T = unknown>(file: string): T =>
	JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as T;

/** Every example workflow, in the order of their file names. */
export const allExamples = <T = unknown>(): T[] =>
	readdirSync(EXAMPLES)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => example<T>(file));

/** A connection from a node's main output to `node`. */
export const to = (node: string) => ({ main: [[{ node, type: 'main', index: 0 }]] });

export const manualTrigger = () => ({
	id: 'run',
	name: 'Run',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
});

/** A PropRadar node on the sandbox credential, or on `credential`. */
export const propRadarNode = (
	id: string,
	name: string,
	position: [number, number],
	parameters: Record<string, unknown>,
	credential: { id: string; name: string } = n8n.CREDENTIAL,
) => ({
	id,
	name,
	type: 'n8n-nodes-propradar.propRadar',
	typeVersion: 1,
	position,
	parameters,
	credentials: { propRadarApi: credential },
});

/** The PropRadar Trigger on list 1 (the demo's "Oregon foreclosures"), its New Matches only. */
export const newMatchesTrigger = (typeVersion: number, webhookId: string) => ({
	id: 'trigger',
	name: 'New matches',
	type: 'n8n-nodes-propradar.propRadarTrigger',
	typeVersion,
	webhookId,
	position: [0, 0],
	parameters: {
		listId: { __rl: true, mode: 'id', value: '1' },
		events: ['newMatches'],
		options: {},
	},
	credentials: { propRadarApi: n8n.CREDENTIAL },
});

/**
 * An item for each of `rows`, as from a sheet: Make (Edit Fields) gives one item holding them, Rows
 * (Split Out) one item a row. Make is to be connected to Rows.
 */
export const rowItems = (rows: unknown[]) => [
	{
		id: 'make',
		name: 'Make',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [220, 0],
		parameters: { mode: 'raw', jsonOutput: JSON.stringify({ rows }), options: {} },
	},
	{
		id: 'rows',
		name: 'Rows',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [440, 0],
		parameters: { fieldToSplitOut: 'rows', options: {} },
	},
];

/** A workflow run by hand: the manual trigger, then `node`. */
export const runByHand = <W extends { name: string }>(
	workflow: W,
	node: { name: string },
	settings: Record<string, unknown> = { executionOrder: 'v1' },
) => ({
	...workflow,
	nodes: [manualTrigger(), node],
	connections: { Run: to(node.name) },
	settings,
});
