import { runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('Account', () => {
	test('members', async () => {
		const members = await runOk(sb, { resource: 'account', operation: 'getMembers' });
		expect(members.length).toBeGreaterThan(0);
		expect(members[0]).toHaveProperty('MemberKey');
	});
});
