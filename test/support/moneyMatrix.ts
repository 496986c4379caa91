/**
 * What a money fault matrix needs beside the engine harness: a charging run with n8n's error and
 * retry settings, and what its output says was charged. Used by the variants' matrix
 * (test/engine/variants/moneyMatrix.test.ts); test/engine/money.test.ts keeps its own.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runNode, TOKENS, type EngineSandbox, type NodeRun } from './harness';

export const cents = (amount: unknown) => Math.round(Number(amount) * 100);

/** Runs the node with "On Error: Continue" and n8n's Retry On Fail as asked. */
export function runCharging(
	sb: EngineSandbox,
	parameters: IDataObject,
	items: IDataObject[],
	options: { continueOnFail?: boolean; retryOnFail?: boolean; token?: string } = {},
): Promise<NodeRun> {
	return runNode(parameters, {
		credentials: { baseUrl: sb.url, accessToken: options.token ?? TOKENS.main },
		items,
		continueOnFail: options.continueOnFail,
		nodeSettings: options.retryOnFail
			? { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 }
			: undefined,
	});
}

/** The output items paired to input item `index`. */
export const pairedTo = (items: INodeExecutionData[], index: number) =>
	items.filter((item) =>
		(Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem]).some(
			(paired) => typeof paired === 'object' && paired?.item === index,
		),
	);

/** What the output says was charged, in cents: each purchase's `_charge.totalCost` once. */
export function chargedInOutput(items: INodeExecutionData[]): number {
	const seen = new Set<string>();
	let total = 0;
	for (const item of items) {
		const note = item.json._charge as { totalCost: unknown; runTotalCost: unknown } | undefined;
		if (!note) continue;
		const key = `${String(note.totalCost)} ${String(note.runTotalCost)}`;
		if (seen.has(key)) continue;
		seen.add(key);
		total += cents(note.totalCost);
	}
	return total;
}
