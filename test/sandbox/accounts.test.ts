import { TOKENS, useSandbox, type Json } from './helpers';

const sb = useSandbox();

describe('accounts', () => {
	test('members: MemberKey, UserName, UserEmail, Role, Status; each account has its own', async () => {
		const mine = (await sb.ok('GET', '/v1/accounts/members')).results;
		expect(mine).toHaveLength(3);
		for (const member of mine) {
			expect(member).toEqual({ MemberKey: expect.any(String), UserName: expect.any(String), UserEmail: expect.stringContaining('@'), Role: expect.any(String), Status: expect.any(String) });
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
