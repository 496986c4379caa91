import { run, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('Property', () => {
	test('transactions: more than 50 custom field IDs are refused before sending', async () => {
		const before = sb.requests.length;
		const ids = Array.from({ length: 51 }, (_, i) => String(100 + i)).join(',');
		const result = await run(sb, {
			resource: 'property',
			operation: 'getTransactions',
			propId: 'P000050',
			customFieldIds: ids,
			chargeMode: 'preview',
		});
		expect(result.error?.message).toBe('Too many custom field IDs: 51, at most 50');
		expect(sb.requests.length).toBe(before);
	});
});
