import { runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

const purchases = (path: string) =>
	sb.requests.filter((r) => r.path === path && r.query.get('Purchase') === '1');

describe('Property', () => {
	test('evictions and transactions', async () => {
		const evictions = await runOk(sb, {
			resource: 'property',
			operation: 'getEvictions',
			propId: 'P000106',
			chargeMode: 'purchase',
			maxCost: 50,
		});
		expect(evictions.length).toBeGreaterThan(0);
		expect(purchases('/v1/properties/P000106/evictions')).toHaveLength(1);
		// A property without eviction records: its quote counts nothing, so nothing is bought and no purchase is sent.
		expect(
			await runOk(sb, {
				resource: 'property',
				operation: 'getEvictions',
				propId: 'P000050',
				chargeMode: 'purchase',
				maxCost: 50,
			}),
		).toEqual([]);
		expect(purchases('/v1/properties/P000050/evictions')).toHaveLength(0);
		await runOk(sb, {
			resource: 'property',
			operation: 'getTransactions',
			propId: 'P000050',
			fields: { fieldsets: ['Standard'] },
			customFieldIds: '101, 102',
			chargeMode: 'purchase',
			maxCost: 50,
		});
		expect(purchases('/v1/properties/P000050/transactions')[0].query.get('Fields')).toBe(
			'Standard,101,102',
		);
	});
});
