import type { IDataObject } from 'n8n-workflow';

import { TOKENS } from '../../support/harness';
import {
	createImportList,
	importInto,
	ownersOf,
	portlandRecords,
	propertyPurchase,
	run,
	runOk,
	sandboxCharges,
	useEngineSandbox,
	useVariants,
} from '../../support/helpers';

// The charging operations against the sandbox's variants of a charge answer (docs/api.md, "Every
// guess"): each works, its records reach the output and nothing is bought past Max Cost; or it stops,
// naming what it could not read, before anything is bought.
const sb = useEngineSandbox();

afterEach(() => useVariants(sb, []));

const purchasesOf = (path: string) =>
	sb.requests.filter((r) => r.path === path && r.query.get('Purchase') === '1').length;

const purchasesOfSince = (from: number, path: string) =>
	sb.requests.slice(from).filter((r) => r.path === path && r.query.get('Purchase') === '1').length;

/** Property > Search buying `limit` properties of `state` under `maxCost`, PropID only. */
const searchPurchase = (state: string, limit: number, maxCost = 100) => ({
	resource: 'property',
	operation: 'search',
	criteriaMode: 'json',
	criteriaJson: JSON.stringify([{ name: 'State', value: [state] }]),
	returnAll: false,
	limit,
	fields: { include: ['PropID'] },
	chargeMode: 'purchase',
	maxCost,
});

/** What the account spent, in cents, while `work` ran, and what `work` gave. */
async function spending<T>(work: () => Promise<T>, token: string = TOKENS.second) {
	const before = await sandboxCharges(sb, token);
	const result = await work();
	const after = await sandboxCharges(sb, token);
	return {
		result,
		cents: before.balanceCents - after.balanceCents,
		records: after.log.length - before.log.length,
	};
}

const chargeOf = (record: IDataObject) => record._charge as IDataObject;

describe('money-numbers: totalCost a JSON number', () => {
	beforeEach(() => useVariants(sb, ['money-numbers']));

	test('Property > Search buys every record asked for, each with its charge, under Max Cost', async () => {
		const { result, cents } = await spending(() =>
			runOk(sb, searchPurchase('WA', 130, 20), undefined, TOKENS.second),
		);
		expect(result).toHaveLength(130);
		expect(new Set(result.map((record) => record.PropID)).size).toBe(130);
		expect(cents).toBeLessThanOrEqual(2000);
		expect(Math.round(Number(chargeOf(result[0]).runTotalCost) * 100)).toBe(cents);
	});

	test('Property > Get and Person > Get Owners buy, their charge said as the service charged it', async () => {
		const { result, cents } = await spending(() =>
			runOk(sb, propertyPurchase('P000777'), undefined, TOKENS.second),
		);
		expect(result.map((record) => record.PropID)).toEqual(['P000777']);
		expect(Math.round(Number(chargeOf(result[0]).totalCost) * 100)).toBe(cents);
		const owners = await spending(() => runOk(sb, ownersOf('P000778'), undefined, TOKENS.second));
		expect(owners.result.length).toBeGreaterThan(0);
		expect(Math.round(Number(chargeOf(owners.result[0]).totalCost) * 100)).toBe(owners.cents);
	});

	test('Import Record > Import buys one match per record, each paired to its item', async () => {
		const listId = await createImportList(sb, 'Numbers import', TOKENS.second);
		const records = portlandRecords(3, 'Variant Ave');
		const { result, cents } = await spending(() =>
			runOk(
				sb,
				importInto(listId, { mapping: 'auto', chargeMode: 'purchase', maxCost: 10 }),
				records,
				TOKENS.second,
			),
		);
		expect(result).toHaveLength(3);
		for (const item of result) expect(item.ListImportItemID).toEqual(expect.any(Number));
		expect(cents).toBeLessThanOrEqual(1000);
	});
});

describe('no-result-count: a charge answer without resultCount', () => {
	beforeEach(() => useVariants(sb, ['no-result-count']));

	test('Property > Search stops at the quote, naming resultCount; nothing bought', async () => {
		const bought = purchasesOf('/v1/properties');
		const { result, cents } = await spending(() =>
			run(sb, searchPurchase('OR', 30), undefined, TOKENS.second),
		);
		expect(result.error?.message).toBe("PropRadar's quote could not be read");
		expect(result.error?.description).toContain('resultCount null');
		expect(result.error?.description).toContain('nothing was charged');
		expect(purchasesOf('/v1/properties')).toBe(bought);
		expect(cents).toBe(0);
	});

	test('Person > Get Owners stops at the quote, naming resultCount; nothing bought', async () => {
		const path = '/v1/properties/P000779/persons';
		const { result, cents } = await spending(() =>
			run(sb, ownersOf('P000779'), undefined, TOKENS.second),
		);
		expect(result.error?.message).toBe("PropRadar's quote could not be read");
		expect(result.error?.description).toContain('resultCount null');
		expect(purchasesOf(path)).toBe(0);
		expect(cents).toBe(0);
	});
});

describe('no-free-remaining: a quote without quantityFreeRemaining', () => {
	beforeEach(() => useVariants(sb, ['no-free-remaining']));

	test('Property > Search buys every record asked for, under Max Cost', async () => {
		const { result, cents } = await spending(() =>
			runOk(sb, searchPurchase('TX', 40, 10), undefined, TOKENS.second),
		);
		expect(result).toHaveLength(40);
		expect(cents).toBeLessThanOrEqual(1000);
	});
});

describe('no-total-result-count: a search without totalResultCount', () => {
	beforeEach(() => useVariants(sb, ['no-total-result-count']));

	test('Property > Search with Return All quotes each further page before buying it; nothing past Max Cost', async () => {
		const from = sb.requests.length;
		const { result, cents, records } = await spending(() =>
			run(
				sb,
				{
					...searchPurchase('OR', 0, 100),
					criteriaJson: JSON.stringify([{ name: 'State', value: ['OR', 'WA', 'CA'] }]),
					returnAll: true,
				},
				undefined,
				TOKENS.second,
			),
		);
		expect(cents).toBeLessThanOrEqual(10000);
		expect(result.error?.message).toBe('Purchase stopped after 1000 records');
		expect(result.error?.description).toContain('over Max Cost');
		const sent = sb.requests
			.slice(from)
			.filter((r) => r.path === '/v1/properties')
			.map((r) => `${r.query.get('Purchase')} ${r.query.get('Start')}`);
		expect(sent).toEqual(['0 0', '1 0', '0 500', '1 500', '0 1000']);
		expect(records).toBe(2);
	});
});

describe('no-results-array: an answer without results', () => {
	beforeEach(() => useVariants(sb, ['no-results-array']));

	const NO_RESULTS = "PropRadar's answer had no results array";

	test('Property > Search over pages stops at its first purchase, saying it may have been charged; nothing more bought', async () => {
		const from = sb.requests.length;
		const { result } = await spending(() =>
			run(sb, { ...searchPurchase('OR', 1200, 1000) }, undefined, TOKENS.second),
		);
		expect(result.error?.message).toBe(NO_RESULTS);
		expect(result.error?.description).toContain('totalCost');
		expect(result.error?.description).toContain('may have been charged');
		expect(purchasesOfSince(from, '/v1/properties')).toBe(1);
	});

	test('Property > Get over several items stops after one purchase, no item read as empty', async () => {
		const from = sb.requests.length;
		const items = [{ id: 'P000811' }, { id: 'P000812' }, { id: 'P000813' }];
		const result = await run(
			sb,
			{ ...propertyPurchase('={{ $json.id }}'), maxCost: 10 },
			items,
			TOKENS.second,
		);
		expect(result.error?.message).toBe(NO_RESULTS);
		expect(result.error?.description).toContain('may have been charged');
		expect(purchasesOfSince(from, '/v1/properties')).toBe(1);
	});

	test('Import Record > Import stops at its first batch, saying it may have been imported and charged', async () => {
		// The import reads its list first, free: only its purchases lose results here.
		await useVariants(sb, []);
		const listId = await createImportList(sb, 'No results import', TOKENS.second);
		sb.faults.push({
			pathPrefix: `/v1/lists/${listId}/import/items`,
			query: { Purchase: '1' },
			count: 1,
			rewrite: (body) => {
				const answer = { ...body };
				delete answer.results;
				return answer;
			},
		});
		const from = sb.requests.length;
		const result = await run(
			sb,
			importInto(listId, { mapping: 'auto', chargeMode: 'purchase', maxCost: 10 }),
			portlandRecords(3, 'Envelope Ave'),
			TOKENS.second,
		);
		expect(result.error?.message).toBe(NO_RESULTS);
		expect(result.error?.description).toContain('may have been imported and charged');
		expect(purchasesOfSince(from, `/v1/lists/${listId}/import/items`)).toBe(1);
	});

	test.each([
		['Account > Get Members', { resource: 'account', operation: 'getMembers' }],
		['Account > Get Status Labels', { resource: 'account', operation: 'getStatusLabels' }],
		['List > Get Many', { resource: 'list', operation: 'getMany', returnAll: true }],
	])(
		'a free single read (%s) stops naming it, not read as nothing there',
		async (_, parameters) => {
			const result = await run(sb, parameters);
			expect(result.error?.message).toBe(NO_RESULTS);
			expect(result.error?.description).toContain('free read: nothing was charged');
		},
	);

	test('Import Record > Import stops at the free read of its list, naming it; nothing sent to buy', async () => {
		await useVariants(sb, []);
		const listId = await createImportList(sb, 'No results list read', TOKENS.second);
		await useVariants(sb, ['no-results-array']);
		const from = sb.requests.length;
		const result = await run(
			sb,
			importInto(listId, { mapping: 'auto', chargeMode: 'purchase', maxCost: 10 }),
			portlandRecords(2, 'Envelope Way'),
			TOKENS.second,
		);
		expect(result.error?.message).toBe(NO_RESULTS);
		expect(result.error?.description).toContain(`GET /v1/lists/${listId}`);
		expect(purchasesOfSince(from, `/v1/lists/${listId}/import/items`)).toBe(0);
	});

	test('a free read (Webhook > Get Many) stops naming it, not read as no webhooks', async () => {
		const result = await run(sb, { resource: 'webhook', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toBe(NO_RESULTS);
		expect(result.error?.description).toContain('free read: nothing was charged');
	});
});

describe('extra-fields: fields no document names', () => {
	beforeEach(() => useVariants(sb, ['extra-fields']));

	test('Property > Search buys and outputs each record with the unknown field', async () => {
		const { result } = await spending(() =>
			runOk(sb, searchPurchase('AZ', 25, 10), undefined, TOKENS.second),
		);
		expect(result).toHaveLength(25);
		for (const record of result) expect(record.ServiceExtra).toBe('record');
	});

	test('Property > Get over several items pairs each record to its item by PropID', async () => {
		const items = [{ id: 'P000801' }, { id: 'P000802' }, { id: 'P000803' }];
		const result = await runOk(
			sb,
			{ ...propertyPurchase('={{ $json.id }}'), maxCost: 10 },
			items,
			TOKENS.second,
		);
		expect(result.map((record) => record.PropID)).toEqual(['P000801', 'P000802', 'P000803']);
	});
});
