import type { IDataObject } from 'n8n-workflow';

import { runNode, TOKENS, type EngineSandbox, type NodeRun } from './harness';

/** The resource locator value of a list picked "By ID". */
export const listRef = (listId: number | string) => ({ __rl: true, mode: 'id', value: String(listId) });

/** Runs the PropRadar node with the main sandbox account (or `token`) against `sb`. */
export function run(sb: EngineSandbox, parameters: IDataObject, items?: IDataObject[], token: string = TOKENS.main, continueOnFail = false): Promise<NodeRun> {
	return runNode(parameters, { credentials: { baseUrl: sb.url, accessToken: token }, items, continueOnFail });
}

/** Runs and fails the test with the node's error if there is one. */
export async function runOk(sb: EngineSandbox, parameters: IDataObject, items?: IDataObject[], token: string = TOKENS.main): Promise<IDataObject[]> {
	const result = await run(sb, parameters, items, token);
	if (result.error) throw new Error(`node failed: ${result.error.message} ${result.error.description ?? ''}`);
	return result.json;
}

/** Creates a list through the node and returns its ListID. */
export async function createList(sb: EngineSandbox, parameters: IDataObject, token: string = TOKENS.main): Promise<number> {
	const [created] = await runOk(sb, { resource: 'list', operation: 'create', ...parameters }, undefined, token);
	return Number(created.ListID);
}

/** Straight to the sandbox, bypassing the node (to set up or read back state). */
export async function api<T = IDataObject>(sb: EngineSandbox, method: string, path: string, body?: unknown, token: string = TOKENS.main): Promise<{ status: number; body: T }> {
	const response = await fetch(`${sb.sandbox.url}${path}`, {
		method,
		headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
}
