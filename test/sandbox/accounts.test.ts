import { expectError, TOKENS, useSandbox, type Json } from './helpers';

const sb = useSandbox();

describe('accounts', () => {
	test('members: MemberKey, UserName, UserEmail, Role, Status; each account has its own', async () => {
		const mine = (await sb.ok('GET', '/v1/accounts/members')).results;
		expect(mine).toHaveLength(3);
		for (const member of mine) {
			expect(member).toEqual({
				MemberKey: expect.any(String),
				UserName: expect.any(String),
				UserEmail: expect.stringContaining('@'),
				Role: expect.any(String),
				Status: expect.any(String),
			});
		}
		const theirs = (await sb.ok('GET', '/v1/accounts/members', { token: TOKENS.second })).results;
		const keys = new Set(mine.map((m: Json) => m.MemberKey));
		expect(theirs.some((m: Json) => keys.has(m.MemberKey))).toBe(false);
	});

	test('status level labels: Value from 1, with a Label each', async () => {
		const statuses = (await sb.ok('GET', '/v1/accounts/preferences/statuses')).results;
		expect(statuses).toHaveLength(9);
		expect(statuses.map((s: Json) => s.Value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
		for (const status of statuses) expect(status.Label).toEqual(expect.any(String));
	});
});

describe('token rotation (POST /_sandbox/tokens/rotate)', () => {
	test('a new token opens the same account; the rotated one answers 401 from then on, and a reset forgets the rotation', async () => {
		const listId = await sb.createList({ ListName: 'Before rotation', ListType: 'static' });
		const rotated = await sb.ok('POST', '/_sandbox/tokens/rotate', {
			token: null,
			body: { token: TOKENS.main },
		});
		expect(rotated).toEqual({
			account: 'acct-1',
			token: expect.stringMatching(/^sandbox-rotated-[0-9a-f]{24}$/),
		});

		expectError(await sb.api('GET', '/v1/lists'), 401, 'Invalid or expired token');
		const lists = (await sb.ok('GET', '/v1/lists', { token: rotated.token })).results;
		expect(lists.map((list: Json) => list.ListID)).toContain(listId);
		expect(await sb.ok('GET', '/v1/integrations/webhooks', { token: rotated.token })).toEqual({
			results: [],
		});

		await sb.reset();
		expect((await sb.api('GET', '/v1/lists')).status).toBe(200);
		expectError(
			await sb.api('GET', '/v1/lists', { token: rotated.token }),
			401,
			'Invalid or expired token',
		);
	});

	test('keepOld: both tokens open the account until the old one is rotated away', async () => {
		const kept = await sb.ok('POST', '/_sandbox/tokens/rotate', {
			token: null,
			body: { token: TOKENS.second, keepOld: true },
		});
		expect(kept.account).toBe('acct-2');
		expect((await sb.api('GET', '/v1/lists', { token: TOKENS.second })).status).toBe(200);
		expect((await sb.api('GET', '/v1/lists', { token: kept.token })).status).toBe(200);
		const next = await sb.ok('POST', '/_sandbox/tokens/rotate', {
			token: null,
			body: { token: kept.token },
		});
		expect((await sb.api('GET', '/v1/lists', { token: TOKENS.second })).status).toBe(200);
		expect((await sb.api('GET', '/v1/lists', { token: kept.token })).status).toBe(401);
		expect((await sb.api('GET', '/v1/lists', { token: next.token })).status).toBe(200);
	});

	test.each([
		[
			{ token: TOKENS.invalid },
			'token must be a token of a sandbox account that is not rotated away',
		],
		[{}, 'token must be a token of a sandbox account that is not rotated away'],
		[{ token: TOKENS.main, keepOld: 'yes' }, 'keepOld must be true or false'],
		[{ token: TOKENS.main, other: 1 }, 'other'],
	])('refuses %j, naming the field', async (body, words) => {
		const refused = expectError(
			await sb.api('POST', '/_sandbox/tokens/rotate', { token: null, body }),
			400,
		);
		expect(JSON.stringify(refused)).toContain(words);
		expect((await sb.api('GET', '/v1/lists')).status).toBe(200);
	});

	test('a rotated-away token is refused by the rotation too', async () => {
		const rotated = await sb.ok('POST', '/_sandbox/tokens/rotate', {
			token: null,
			body: { token: TOKENS.main },
		});
		expectError(
			await sb.api('POST', '/_sandbox/tokens/rotate', {
				token: null,
				body: { token: TOKENS.main },
			}),
			400,
		);
		expect((await sb.api('GET', '/v1/lists', { token: rotated.token })).status).toBe(200);
	});
});
