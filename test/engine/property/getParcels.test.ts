import { runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('Property', () => {
	test('parcels: one item per property with every piece kept', async () => {
		const outputs = await runOk(
			sb,
			{
				resource: 'property',
				operation: 'getParcels',
				propId: '={{ $json.id }}',
				chargeMode: 'purchase',
				maxCost: 50,
			},
			Array.from({ length: 30 }, (_, i) => ({ id: `P0000${30 + i}` })),
		);
		expect(outputs).toHaveLength(30);
		for (const output of outputs) {
			expect(output.pieceCount).toBe((output.parcels as unknown[]).length);
			expect(output.pieceCount).toBeGreaterThan(0);
		}
		expect(outputs.some((output) => Number(output.pieceCount) > 1)).toBe(true);
	});
});
