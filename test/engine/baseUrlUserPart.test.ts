/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * A token typed into the Base URL's user part (`http://user:<token>@host`) is refused before
 * anything is sent, naming the field, and never shown back: not in an error's message,
 * description or stack, nor in an output item under "On Error: Continue".
 */
import type { IDataObject } from 'n8n-workflow';

import { searchLists } from '../../nodes/PropRadar/shared/listSearch';
import {
	loadOptionsContext,
	runNode,
	TOKENS,
	type CredentialValues,
	type NodeRun,
} from '../support/harness';
import { listRef, useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();

const TOKEN_IN_URL = 'url-token-7c1e9f3a5b';
const listMany = { resource: 'list', operation: 'getMany', returnAll: false, limit: 5 };
const purchase = {
	resource: 'property',
	operation: 'get',
	propId: 'P000001',
	chargeMode: 'purchase',
	maxCost: 5,
};

/** `url` with `userPart` put before its host. */
const withUser = (url: string, userPart: string) => url.replace('://', `://${userPart}@`);

/** Everything of a run that a person or a log can see: the error (message, description, stack) and the items. */
const shown = (result: NodeRun) =>
	JSON.stringify({
		...result.error,
		message: result.error?.message,
		stack: (result.error as { stack?: string } | undefined)?.stack,
		items: result.json,
	});

function runWith(
	baseUrl: string,
	parameters: IDataObject = listMany,
	continueOnFail = false,
): Promise<NodeRun> {
	const credentials: CredentialValues = { baseUrl, accessToken: TOKENS.main };
	return runNode(parameters, { credentials, continueOnFail });
}

describe.each([
	['user and token', `u:${TOKEN_IN_URL}`],
	['the token as the user', TOKEN_IN_URL],
	['a user and an empty password', `${TOKEN_IN_URL}:`],
])('a Base URL with a user part (%s)', (_name, userPart) => {
	test('is refused naming the field, before anything is sent, showing the address without its user part', async () => {
		const before = sb.requests.length;
		const result = await runWith(withUser(sb.url, userPart));
		expect(result.error?.message).toBe(
			'The Base URL of the PropRadar credential holds a user name or password',
		);
		expect(result.error?.description).toBe(
			`Base URL: PropRadar takes the token in the credential's Access Token, never in the address; remove the part before "@" (the address is then ${sb.url}). Nothing was sent.`,
		);
		expect(sb.requests.length).toBe(before);
		expect(shown(result)).not.toContain(TOKEN_IN_URL);
	});

	test('with "On Error: Continue" the output item says so, without the token', async () => {
		const result = await runWith(withUser(sb.url, userPart), listMany, true);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{
				error: 'The Base URL of the PropRadar credential holds a user name or password',
				description: expect.stringContaining('Base URL: '),
			},
		]);
		expect(shown(result)).not.toContain(TOKEN_IN_URL);
	});
});

test('an unreachable Base URL with a user part (the report: "Could not reach PropRadar at http://u:<token>@host") is refused the same way', async () => {
	for (const continueOnFail of [false, true]) {
		const result = await runWith(`http://u:${TOKEN_IN_URL}@127.0.0.1:1`, listMany, continueOnFail);
		expect(shown(result)).toContain(
			'The Base URL of the PropRadar credential holds a user name or password',
		);
		expect(shown(result)).toContain('(the address is then http://127.0.0.1:1)');
		expect(shown(result)).not.toContain(TOKEN_IN_URL);
	}
});

test('a purchase is refused with nothing sent and nothing charged, without the token', async () => {
	const before = sb.requests.length;
	const result = await runWith(withUser(sb.url, `u:${TOKEN_IN_URL}`), purchase);
	expect(result.error?.message).toBe(
		'The Base URL of the PropRadar credential holds a user name or password',
	);
	expect(sb.requests.length).toBe(before);
	expect(shown(result)).not.toContain(TOKEN_IN_URL);
});

test('a Base URL that is no web address and holds a user part is shown without it', async () => {
	const result = await runWith(`u:${TOKEN_IN_URL}@127.0.0.1:8787`);
	expect(result.error?.message).toMatch(
		/^The Base URL of the PropRadar credential (holds a user name or password|is not a web address)$/,
	);
	expect(result.error?.description).toContain('Base URL');
	expect(shown(result)).not.toContain(TOKEN_IN_URL);
});

test("the editor's pickers refuse it too, naming the field, without the token", async () => {
	const before = sb.requests.length;
	const context = loadOptionsContext(
		{ baseUrl: withUser(sb.url, `u:${TOKEN_IN_URL}`), accessToken: TOKENS.main },
		{ resource: 'listItem', operation: 'getMany', listId: listRef('') },
		'parameters.listId',
	);
	let error: (Error & { description?: string }) | undefined;
	await searchLists.call(context, undefined).catch((caught: Error) => (error = caught));
	expect(error?.message).toBe(
		'The Base URL of the PropRadar credential holds a user name or password',
	);
	expect(JSON.stringify({ ...error, message: error?.message, stack: error?.stack })).not.toContain(
		TOKEN_IN_URL,
	);
	expect(sb.requests.length).toBe(before);
});

test('an "@" in the Base URL\'s path is no user part: the request is sent', async () => {
	const before = sb.requests.length;
	const result = await runWith(`${sb.url}/x@y`);
	expect(result.error?.message ?? '').not.toContain('user name or password');
	expect(sb.requests.length).toBeGreaterThan(before);
});
