import type { IDataObject } from 'n8n-workflow';

import { TOKENS } from '../../support/harness';
import {
	addToList,
	createList,
	listRef,
	run,
	runOk,
	sandboxCharges,
	useEngineSandbox,
	useVariants,
} from '../../support/helpers';

// Paging against the sandbox's variants (docs/api.md, "Every guess"): a lower Limit maximum
// (`low-limit`: refused) and pages cut short (`short-page`: at most 20 records, whatever Limit asks).
const sb = useEngineSandbox();

afterEach(() => useVariants(sb, []));

const PROP_IDS = Array.from({ length: 45 }, (_, i) => `P00${String(2001 + i).padStart(4, '0')}`);

/** A static list of the 45 properties of PROP_IDS. */
async function listOf45(name: string): Promise<number> {
	const listId = await createList(sb, { listName: name, listType: 'static' });
	await addToList(sb, listId, PROP_IDS.join(','));
	return listId;
}

const itemsOf = (listId: number, parameters: IDataObject = { returnAll: true }) => ({
	resource: 'listItem',
	operation: 'getMany',
	listId: listRef(listId),
	...parameters,
});

const searchPurchase = (limit: number, maxCost = 100) => ({
	resource: 'property',
	operation: 'search',
	criteriaMode: 'json',
	criteriaJson: JSON.stringify([{ name: 'PropID', value: PROP_IDS }]),
	returnAll: false,
	limit,
	fields: { include: ['PropID'] },
	chargeMode: 'purchase',
	maxCost,
});

describe('short-page: at most 20 records a page, without saying so', () => {
	test('List Item > Get Many of a whole list pages on to the list count: every item', async () => {
		const listId = await listOf45('Short pages');
		await useVariants(sb, ['short-page']);
		const items = await runOk(sb, itemsOf(listId));
		expect(items.map((item) => item.PropID).sort()).toEqual(PROP_IDS);
	});

	test('Webhook > Get Many reads every webhook past short pages', async () => {
		for (let i = 0; i < 25; i++)
			await runOk(sb, {
				resource: 'webhook',
				operation: 'create',
				hookUrl: `http://127.0.0.1:9/h${i}`,
				webhookName: `Short ${i}`,
			});
		await useVariants(sb, ['short-page']);
		const hooks = await runOk(sb, { resource: 'webhook', operation: 'getMany', returnAll: true });
		expect(hooks.filter((hook) => String(hook.WebhookName).startsWith('Short '))).toHaveLength(25);
	});
});

/** Each record once in the output, every purchase quoted first, and the charge log's records: as many. */
async function boughtOnce(from: number, charges: number, records: IDataObject[]) {
	const sent = sb.requests.slice(from).filter((r) => r.path === '/v1/properties');
	const modes = sent.map((r) => r.query.get('Purchase'));
	modes.forEach((mode, index) => {
		if (mode === '1') expect(modes[index - 1]).toBe('0');
	});
	const log = (await sandboxCharges(sb, TOKENS.second)).log.slice(charges);
	expect(log.reduce((sum, entry) => sum + entry.quantity, 0)).toBe(records.length);
	expect(new Set(records.map((record) => record.PropID)).size).toBe(records.length);
	return modes.filter((mode) => mode === '1').length;
}

describe('short-page: a charging read past pages cut short', () => {
	beforeEach(() => useVariants(sb, ['short-page']));

	test('Property > Search with Purchase buys all 45 wanted, each page quoted, none twice', async () => {
		const charges = (await sandboxCharges(sb, TOKENS.second)).log.length;
		const from = sb.requests.length;
		const records = await runOk(sb, searchPurchase(45), undefined, TOKENS.second);
		expect(records.map((record) => record.PropID).sort()).toEqual(PROP_IDS);
		expect(await boughtOnce(from, charges, records)).toBe(3);
	});

	test('Property > Search in Preview says the first page holds 20 of the 45 wanted', async () => {
		const [preview] = await runOk(
			sb,
			{ ...searchPurchase(45), chargeMode: 'preview' },
			undefined,
			TOKENS.second,
		);
		expect(preview).toMatchObject({ wanted: 45, resultCount: 45, estimated: true });
		expect(preview.note).toContain("PropRadar's first page held 20 of the 45 asked");
	});

	test('Property > Get over 45 items with Purchase buys each once, paired to its item', async () => {
		const charges = (await sandboxCharges(sb, TOKENS.second)).log.length;
		const from = sb.requests.length;
		const items = PROP_IDS.map((id) => ({ id }));
		const records = await runOk(
			sb,
			{
				resource: 'property',
				operation: 'get',
				propId: '={{ $json.id }}',
				chargeMode: 'purchase',
				maxCost: 100,
			},
			items,
			TOKENS.second,
		);
		expect(records.map((record) => record.PropID)).toEqual(PROP_IDS);
		await boughtOnce(from, charges, records);
	});
});

describe('low-limit: a Limit above 20 refused with 400', () => {
	test('List Item > Get Many stops with the service saying what Limit it takes', async () => {
		const listId = await listOf45('Low limit');
		await useVariants(sb, ['low-limit']);
		const result = await run(sb, itemsOf(listId));
		expect(result.error).toBeDefined();
		expect(`${result.error?.message} ${result.error?.description}`).toContain(
			'Limit must be at most 20',
		);
	});

	test('Property > Search stops at the refused quote: nothing bought', async () => {
		await useVariants(sb, ['low-limit']);
		const before = await sandboxCharges(sb, TOKENS.second);
		const from = sb.requests.length;
		const result = await run(sb, searchPurchase(45), undefined, TOKENS.second);
		expect(`${result.error?.message} ${result.error?.description}`).toContain(
			'Limit must be at most 20',
		);
		expect(await sandboxCharges(sb, TOKENS.second)).toEqual(before);
		const sent = sb.requests.slice(from).filter((r) => r.path === '/v1/properties');
		expect(sent.map((r) => r.query.get('Purchase'))).toEqual(['0']);
	});
});
