import { runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('Account', () => {
	test('status level labels', async () => {
		const labels = await runOk(sb, { resource: 'account', operation: 'getStatusLabels' });
		expect(labels.length).toBeGreaterThan(0);
		expect(labels[0]).toEqual({ Value: expect.any(Number), Label: expect.any(String) });
	});
});
