import { runOk, useEngineSandbox } from './helpers';

const sb = useEngineSandbox();

describe('Account', () => {
	test('members and status level labels', async () => {
		const members = await runOk(sb, { resource: 'account', operation: 'getMembers' });
		expect(members.length).toBeGreaterThan(0);
		expect(members[0]).toHaveProperty('MemberKey');
		const labels = await runOk(sb, { resource: 'account', operation: 'getStatusLabels' });
		expect(labels.length).toBeGreaterThan(0);
		expect(labels[0]).toEqual({ Value: expect.any(Number), Label: expect.any(String) });
	});
});
