import { runNode, TOKENS } from '../../support/harness';
import { run, runOk, useEngineSandbox } from '../../support/helpers';

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
});
