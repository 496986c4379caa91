/** The benchmark's calls to the sandbox's API: lists to read and import into, as its first account. */
import { ACCOUNTS } from '../sandbox/accounts';
import type { RunningSandbox } from '../sandbox/types';

/** The sandbox's first account, which the benchmark's credential uses too. */
export const TOKEN = ACCOUNTS[0].token;
export const AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

export async function sandboxCall<T>(
	sandbox: RunningSandbox,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${sandbox.url}${path}`, {
		method,
		headers: AUTH,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok)
		throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
	return JSON.parse(text) as T;
}
export async function createList(
	sandbox: RunningSandbox,
	body: Record<string, unknown>,
): Promise<number> {
	return (
		await sandboxCall<{ results: Array<{ ListID: number }> }>(sandbox, 'POST', '/v1/lists', body)
	).results[0].ListID;
}
/**
 * Reads one item of a dynamic list, so that the sandbox refreshes it now (it does on the first
 * read after any write, such as a list created by another job) and not in the first measured read.
 */
export async function refreshList(sandbox: RunningSandbox, listId: number): Promise<void> {
	await sandboxCall(sandbox, 'GET', `/v1/lists/${listId}/items?Limit=1`);
}
export const propIds = (count: number) =>
	Array.from({ length: count }, (_, i) => `P${String(i + 1).padStart(6, '0')}`);
/** A dynamic list of exactly `count` properties (60,000: every state), not monitored: read on demand. */
export const dynamicList = (sandbox: RunningSandbox, count: number) =>
	createList(sandbox, {
		ListName: `bench ${count}`,
		ListType: 'dynamic',
		Criteria:
			count >= 60_000
				? [{ name: 'State', value: ['OR', 'WA', 'CA', 'TX', 'FL', 'AZ'] }]
				: [{ name: 'PropID', value: propIds(count) }],
	});
export const importList = (sandbox: RunningSandbox, name: string) =>
	createList(sandbox, { ListName: name, ListType: 'import', ImportSource: 'api' });
