/**
 * n8n's de-duplication store for the engine tier. n8n-core's `DataDeduplicationService` (behind
 * `this.helpers.checkProcessedAndRecord` and the rest) is started by the n8n CLI with the
 * `DeduplicationHelper` of the `n8n` package, which keeps each node's (or workflow's) values in the
 * database table `processed_data`; the engine tier has no n8n database, so the service is started
 * here, as n8n starts it (`DataDeduplicationService.init`), with a store that keeps the same rows
 * in memory and follows that helper's rules for the mode `entries`: one row per workflow and
 * context (`n:<node id>` or the workflow's ''), values kept as their MD5 hash, a value already
 * kept is `processed` and every other is `new` and kept, `maxEntries` keeps the newest, a row
 * saved with another mode is refused, `removeProcessed` takes one copy of each value away.
 * The real store is exercised in the real-n8n tier (test/e2e/leadPipelineRuns.test.ts).
 */
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

interface Row {
	mode: string;
	data: string[];
}

const rows = new Map<string, Row>();
/** Calls of a name to let through before one fails (a database that fails). */
const failing = new Map<string, number>();

const hash = (value: DeduplicationItemTypes) =>
	createHash('md5').update(value.toString()).digest('base64');

function rowKey(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
	if (!contextData.workflow.id) throw new Error('The workflow has no ID');
	if (scope === 'node' && !contextData.node)
		throw new Error("No node information has been provided and so cannot use scope 'node'");
	return `${contextData.workflow.id}|${scope === 'node' ? `n:${contextData.node!.id}` : ''}`;
}

function failIfAsked(name: string): void {
	const pass = failing.get(name);
	if (pass === undefined) return;
	if (pass > 0) {
		failing.set(name, pass - 1);
		return;
	}
	failing.delete(name);
	throw new Error(`store unavailable (${name})`);
}

const memoryStore: IDataDeduplicator = {
	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		failIfAsked('checkProcessedAndRecord');
		if (options.mode !== 'entries') throw new Error('Only the mode "entries" is kept here');
		const key = rowKey(scope, contextData);
		const row = rows.get(key);
		if (row && row.mode !== options.mode)
			throw new Error('Deduplication data was originally saved with an incompatible setting');
		const hashed = items.map(hash);
		if (!row) {
			const data = options.maxEntries ? hashed.slice(-options.maxEntries) : hashed;
			rows.set(key, { mode: options.mode, data });
			return { new: items, processed: [] };
		}
		const kept = new Set(row.data);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		hashed.forEach((value, index) => {
			if (kept.has(value)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				row.data.push(value);
			}
		});
		if (options.maxEntries) row.data.splice(0, row.data.length - options.maxEntries);
		return output;
	},
	async removeProcessed(items, scope, contextData) {
		failIfAsked('removeProcessed');
		const row = rows.get(rowKey(scope, contextData));
		if (!row) return;
		for (const value of items.map(hash)) {
			const index = row.data.indexOf(value);
			if (index !== -1) row.data.splice(index, 1);
		}
	},
	async clearAllProcessedItems(scope, contextData) {
		rows.delete(rowKey(scope, contextData));
	},
	async getProcessedDataCount(scope, contextData, options) {
		const row = rows.get(rowKey(scope, contextData));
		return options.mode === 'entries' && row ? row.data.length : 0;
	},
};

let started = false;

/** Starts n8n's de-duplication service with the in-memory store (once per test process). */
export async function useProcessedDataStore(): Promise<void> {
	if (started) return;
	await DataDeduplicationService.init(memoryStore);
	started = true;
}

/** Forgets every kept value (between tests). */
export function clearProcessedData(): void {
	rows.clear();
	failing.clear();
}

/** How many values a workflow keeps for a context ('' for the workflow scope, `n:<node id>` for a node). */
export function processedCount(workflowId: string, context: string): number {
	return rows.get(`${workflowId}|${context}`)?.data.length ?? 0;
}

/** Keeps `values` for a workflow and context, as earlier executions would have. */
export function keepProcessed(workflowId: string, context: string, values: string[]): void {
	rows.set(`${workflowId}|${context}`, { mode: 'entries', data: values.map(hash) });
}

/** A call of `name` to the store, after `pass` others, fails as a database that fails would. */
export function failStoreCall(name: 'checkProcessedAndRecord' | 'removeProcessed', pass = 0): void {
	failing.set(name, pass);
}
