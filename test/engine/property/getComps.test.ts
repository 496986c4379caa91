import { runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('Property', () => {
	test('comps: the subject overrides are sent', async () => {
		const comps = await runOk(sb, {
			resource: 'property',
			operation: 'getComps',
			propId: 'P000040',
			compsKind: 'sales',
			subject: { Beds: 4, SqFt: 2200 },
			chargeMode: 'purchase',
			maxCost: 50,
		});
		expect(Array.isArray(comps)).toBe(true);
		const sent = sb.sent('/v1/properties/P000040/comps/sales').at(-1)!;
		expect(sent.query.get('Beds')).toBe('4');
		expect(sent.query.get('SqFt')).toBe('2200');
		const forSale = await runOk(sb, {
			resource: 'property',
			operation: 'getComps',
			propId: 'P000040',
			compsKind: 'forsale',
			chargeMode: 'preview',
		});
		expect(forSale[0]).toMatchObject({ preview: true, comps: 'forsale' });
	});
});
