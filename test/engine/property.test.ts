import { runNode, TOKENS } from './harness';
import { api, run, runOk, useEngineSandbox } from './helpers';

const sb = useEngineSandbox();

const purchases = (path: string) =>
	sb.requests.filter((r) => r.path === path && r.query.get('Purchase') === '1');
/** Buys the first 500 properties in Oregon under `maxCost`. */
const oregonPurchase = (maxCost: number) => ({
	resource: 'property',
	operation: 'search',
	criteriaMode: 'json',
	criteriaJson: '[{"name":"State","value":["OR"]}]',
	returnAll: false,
	limit: 500,
	chargeMode: 'purchase',
	maxCost,
});

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

	test('search: preview gives the total and the quote, nothing bought', async () => {
		const [quote] = await runOk(sb, {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'builder',
			criteria: { criterion: [{ name: 'State', values: 'OR' }] },
			returnAll: true,
			chargeMode: 'preview',
		});
		expect(quote.preview).toBe(true);
		expect(Number(quote.totalResultCount)).toBeGreaterThan(500);
		expect(quote.note).toContain('500 per request');
		expect(purchases('/v1/properties')).toHaveLength(0);
	});

	test('search: Limit 1200 buys pages of 500, 500 and 200, each quoted first', async () => {
		const before = sb.sent('/v1/properties', 'POST').length;
		const found = await runOk(sb, {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR","WA","CA"]}]',
			returnAll: false,
			limit: 1200,
			fields: { include: ['PropID', 'State'] },
			chargeMode: 'purchase',
			maxCost: 1000,
		});
		expect(found).toHaveLength(1200);
		expect(new Set(found.map((p) => p.PropID)).size).toBe(1200);
		const sent = sb.sent('/v1/properties', 'POST').slice(before);
		expect(
			sent.map((r) => [r.query.get('Purchase'), r.query.get('Start'), r.query.get('Limit')]),
		).toEqual([
			['0', '0', '500'],
			['1', '0', '500'],
			['0', '500', '500'],
			['1', '500', '500'],
			['0', '1000', '200'],
			['1', '1000', '200'],
		]);
	});

	test('search: a cap below the quote buys nothing', async () => {
		const before = purchases('/v1/properties').length;
		const result = await run(sb, oregonPurchase(0.01), undefined, TOKENS.second);
		expect(result.error?.message).toBe('Purchase refused: over Max Cost');
		expect(result.error?.description).toContain('Nothing was charged');
		expect(result.error?.description).toContain('Set Max Cost to at least $50.00');
		expect(purchases('/v1/properties').length).toBe(before);
	});

	test("the credential's spending ceiling wins over a higher Max Cost", async () => {
		const result = await runOk(sb, {
			resource: 'property',
			operation: 'get',
			propId: 'P000011',
			chargeMode: 'preview',
		});
		expect(result).toHaveLength(1);
		const before = purchases('/v1/properties').length;
		const capped = await runNode(oregonPurchase(100000), {
			credentials: { baseUrl: sb.url, accessToken: TOKENS.second, spendingCeiling: 0.01 },
		});
		expect(capped.error?.message).toBe("Purchase refused: over the credential's spending ceiling");
		expect(capped.error?.description).toContain(
			'Spending Ceiling per Execution has $0.01 of $0.01 left',
		);
		expect(capped.error?.description).not.toContain('Max Cost');
		expect(purchases('/v1/properties').length).toBe(before);
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
		expect(result.error?.message).toBe(
			'Custom Field IDs and Fields > Unlisted Fields: 51 custom field IDs given, at most 50 allowed',
		);
		expect(sb.requests.length).toBe(before);
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
