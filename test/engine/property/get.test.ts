import { TOKENS } from '../../support/harness';
import { api, run, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

const purchases = (path: string) =>
	sb.requests.filter((r) => r.path === path && r.query.get('Purchase') === '1');

describe('Property', () => {
	test('get: preview quotes for free; purchase returns the chosen fields with suppression', async () => {
		const [quote] = await runOk(sb, {
			resource: 'property',
			operation: 'get',
			propId: 'P000010',
			chargeMode: 'preview',
		});
		expect(quote).toMatchObject({ PropID: 'P000010', preview: true, resultCount: 1 });
		expect(typeof quote.totalCost).toBe('string');
		expect(purchases('/v1/properties/P000010')).toHaveLength(0);

		const [property] = await runOk(sb, {
			resource: 'property',
			operation: 'get',
			propId: 'P000010',
			fields: { fieldsets: ['Map'], include: ['Address'], exclude: ['PType'] },
			chargeMode: 'purchase',
			maxCost: 10,
		});
		expect(Object.keys(property).sort()).toEqual([
			'Address',
			'Latitude',
			'Longitude',
			'PropID',
			'_charge',
		]);
		expect(property._charge).toEqual({
			totalCost: quote.totalCost,
			resultCount: 1,
			runTotalCost: quote.totalCost,
		});
		expect(purchases('/v1/properties/P000010')).toHaveLength(1);
		expect(purchases('/v1/properties/P000010')[0].query.get('Fields')).toBe('Map,Address,-PType');
	});

	test('the cap holds for the whole run, all items together', async () => {
		const [quote] = await runOk(
			sb,
			{ resource: 'property', operation: 'get', propId: 'P000020', chargeMode: 'preview' },
			undefined,
			TOKENS.second,
		);
		// Free export credits used up: every purchase costs its full price. Room for two, not three.
		await api(
			sb,
			'POST',
			'/v1/properties?Purchase=1&Limit=100',
			{ Criteria: [{ name: 'State', value: ['WA'] }] },
			TOKENS.second,
		);
		const price = Number(quote.maxCostNeeded);
		expect(price).toBeGreaterThan(0);
		const result = await run(
			sb,
			{
				resource: 'property',
				operation: 'get',
				propId: '={{ $json.id }}',
				chargeMode: 'purchase',
				maxCost: price * 2 + price / 2,
			},
			[{ id: 'P000021' }, { id: 'P000022' }, { id: 'P000023' }],
			TOKENS.second,
			true,
		);
		// The run's quotes come first: three purchases do not fit, so none is bought.
		expect(result.json.map((item) => item.error)).toEqual(
			Array(3).fill('Purchase refused: over Max Cost'),
		);
		expect(
			sb.requests.filter(
				(request) => /P00002[123]$/.test(request.path) && request.query.get('Purchase') === '1',
			),
		).toHaveLength(0);
	});

	test('an unknown fieldset is refused before sending', async () => {
		const before = sb.requests.length;
		const result = await run(sb, {
			resource: 'property',
			operation: 'get',
			propId: 'P000001',
			fields: { fieldsets: ['Everything'] },
			chargeMode: 'preview',
		});
		expect(result.error?.message).toBe('Fields: Everything is not allowed here');
		expect(sb.requests.length).toBe(before);
	});
});
