import { sleep, type IDataObject } from 'n8n-workflow';

import { TOKENS } from '../../support/harness';
import {
	createImportList,
	createList,
	importInto,
	importItemsOf,
	run,
	realAddresses,
	runOk,
	sandboxCharges,
	useEngineSandbox,
} from '../../support/helpers';

const sb = useEngineSandbox();

const charges = (token: string) => sandboxCharges(sb, token);
const importList = (token: string = TOKENS.main) => createImportList(sb, 'CSV import', token);
const autoPurchase = { mapping: 'auto', chargeMode: 'purchase', maxCost: 10 };
const importItems = (listId: number, parameters: IDataObject = {}) =>
	runOk(sb, importItemsOf(listId, parameters));

describe('Import Record', () => {
	test('import same-named fields: one output item per record, paired, with its ListImportItemID and match', async () => {
		const listId = await importList();
		const records = await realAddresses(sb, 3);
		const result = await runOk(sb, importInto(listId, autoPurchase), records);
		expect(result).toHaveLength(3);
		for (const item of result) {
			expect(item.ListImportItemID).toEqual(expect.any(Number));
			expect(item.PropertyStatus).toBe('Matched');
		}
		const items = await importItems(listId, {
			filters: { PropertyStatus: ['Matched'], MatchScore: 90 },
		});
		expect(items.map((item) => item.ListImportItemID).sort()).toEqual(
			result.map((item) => item.ListImportItemID).sort(),
		);
	});

	test('10,000 input items: the quote plus ceil(10,000 / batch size) purchase requests, each on a connection that carries nothing else, every output paired to its input', async () => {
		const listId = await importList(TOKENS.second);
		const items = Array.from({ length: 10_000 }, (_, i) => ({
			Address: `${i + 1} Nowhere Rd`,
			City: 'Portland',
			State: 'OR',
			ZipFive: '97201',
			row: i,
		}));
		const before = sb.sent(`/v1/lists/${listId}/import/items`, 'POST').length;
		const requestsBefore = sb.requests.length;
		const result = await run(
			sb,
			importInto(listId, { ...autoPurchase, maxCost: 1000, importOptions: { batchSize: 500 } }),
			items,
			TOKENS.second,
		);
		expect(result.error).toBeUndefined();
		const sent = sb.sent(`/v1/lists/${listId}/import/items`, 'POST').slice(before);
		expect(sent.filter((r) => r.query.get('Purchase') === '0')).toHaveLength(1);
		const purchases = sent.filter((r) => r.query.get('Purchase') === '1');
		expect(purchases).toHaveLength(Math.ceil(10_000 / 500));
		const connections = new Set(purchases.map((purchase) => purchase.connection));
		expect(connections.size).toBe(purchases.length);
		expect(
			sb.requests.slice(requestsBefore).filter((request) => connections.has(request.connection)),
		).toEqual(purchases);
		expect(result.items).toHaveLength(10_000);
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect((item.json.record as Record<string, string>).Address).toBe(`${index + 1} Nowhere Rd`);
		});
	}, 60_000);

	test('preview: one summary item, nothing created or charged', async () => {
		const listId = await importList();
		const records = await realAddresses(sb, 4);
		const before = await charges(TOKENS.main);
		const [quote] = await runOk(sb, importInto(listId, { chargeMode: 'preview' }), records);
		expect(quote).toMatchObject({ preview: true, resultCount: 4, records: 4, ListID: listId });
		expect(await charges(TOKENS.main)).toEqual(before);
		expect(await importItems(listId)).toHaveLength(0);
	});

	test('a cap below the quote charges nothing and sends no purchase', async () => {
		const listId = await importList(TOKENS.broke);
		const before = await charges(TOKENS.broke);
		const result = await run(
			sb,
			importInto(listId, { chargeMode: 'purchase', maxCost: 0.01 }),
			Array.from({ length: 50 }, (_, i) => ({ Address: `${i} Elm St` })),
			TOKENS.broke,
		);
		expect(result.error?.message).toBe('Purchase refused: over Max Cost');
		expect(result.error?.description).toContain('Nothing was charged');
		expect(
			sb.sent(`/v1/lists/${listId}/import/items`).filter((r) => r.query.get('Purchase') === '1'),
		).toHaveLength(0);
		expect(await charges(TOKENS.broke)).toEqual(before);
	});

	test('sandbox-broke gets a 402 that says what to do', async () => {
		const listId = await importList(TOKENS.broke);
		const result = await run(
			sb,
			importInto(listId, { chargeMode: 'purchase', maxCost: 100 }),
			[{ Address: '1 Elm St' }],
			TOKENS.broke,
		);
		expect(result.error?.httpCode).toBe('402');
		expect(result.error?.description).toContain('Preview Cost (Free)');
	});

	test.each(['preview', 'purchase'])(
		'a list that is not an API import list is refused, saying how to create one (%s): its free quote may go out, no purchase',
		async (chargeMode) => {
			const listId = await createList(sb, { listName: 'static', listType: 'static' });
			const before = await charges(TOKENS.main);
			const result = await run(sb, importInto(listId, { chargeMode, maxCost: 100 }), [
				{ Address: '1 Elm St' },
			]);
			expect(result.error?.message).toBe(
				`List ${listId} is not an import list that takes API imports`,
			);
			expect(result.error?.description).toContain('List Type "Import", Import Source "API');
			expect(result.error?.description).toContain('Nothing was bought or charged.');
			expect(
				sb.sent(`/v1/lists/${listId}/import/items`).filter((r) => r.query.get('Purchase') !== '0'),
			).toHaveLength(0);
			expect(await charges(TOKENS.main)).toEqual(before);
		},
	);

	test('the list check, made while the quote travels, is answered before any purchase: a check that fails after the quote was answered buys nothing', async () => {
		const listId = await importList();
		const records = await realAddresses(sb, 2);
		const before = await charges(TOKENS.main);
		sb.faults.push({
			pathPrefix: `/v1/lists/${listId}`,
			method: 'GET',
			count: 1,
			status: 404,
			delayMs: 400,
		});
		const result = await run(
			sb,
			importInto(listId, { chargeMode: 'purchase', maxCost: 100 }),
			records,
		);
		expect(result.error?.httpCode).toBe('404');
		const sent = sb.sent(`/v1/lists/${listId}/import/items`, 'POST');
		expect(sent.filter((r) => r.query.get('Purchase') === '0')).toHaveLength(1);
		expect(sent.filter((r) => r.query.get('Purchase') === '1')).toHaveLength(0);
		expect(await charges(TOKENS.main)).toEqual(before);
	});
});

// Import List is read for every item: an item's records go to the list it names, never to another
// item's (docs/money.md, rule 6, "Import").
describe('Import Record > Import, items that name different import lists', () => {
	const perItemList = (parameters: IDataObject) => ({
		resource: 'importRecord',
		operation: 'import',
		listId: { __rl: true, mode: 'id', value: '={{ $json.listId }}' },
		mapping: 'manual',
		recordFields: {
			field: [
				{ name: 'Address', value: '={{ $json.Address }}' },
				{ name: 'City', value: '={{ $json.City }}' },
				{ name: 'State', value: '={{ $json.State }}' },
				{ name: 'ZipFive', value: '={{ $json.ZipFive }}' },
			],
		},
		...parameters,
	});
	const overTwoLists = async () => {
		const [a, b] = [await importList(), await importList()];
		const records = await realAddresses(sb, 4);
		// A, B, A, B, as the workflow had them.
		return {
			a,
			b,
			records: records.map((record, i): IDataObject => ({ ...record, listId: i % 2 ? b : a })),
		};
	};
	const importedInto = async (listId: number) =>
		(await importItems(listId)).map((item) => item.ListImportItemID).sort();

	test("Purchase: each record lands in its own item's list, charged once, and the charges equal the output", async () => {
		const { a, b, records } = await overTwoLists();
		const before = await charges(TOKENS.main);
		const result = await runOk(sb, perItemList({ chargeMode: 'purchase', maxCost: 10 }), records);
		expect(result).toHaveLength(4);
		expect(result.every((item) => item.imported === true)).toBe(true);
		const ids = (list: number) =>
			result
				.filter((_, i) => records[i].listId === list)
				.map((item) => item.ListImportItemID)
				.sort();
		expect(await importedInto(a)).toEqual(ids(a));
		expect(await importedInto(b)).toEqual(ids(b));
		expect(await importedInto(a)).toHaveLength(2);
		expect(await importedInto(b)).toHaveLength(2);
		const after = await charges(TOKENS.main);
		const charged = after.log.slice(before.log.length);
		expect(charged.reduce((sum, entry) => sum + entry.quantity, 0)).toBe(4);
		const spent = charged.reduce((sum, entry) => sum + entry.cents, 0);
		const last = result[result.length - 1]._charge as IDataObject;
		expect(Math.round(Number(last.runTotalCost) * 100)).toBe(spent);
		const purchases = (list: number) =>
			sb
				.sent(`/v1/lists/${list}/import/items`, 'POST')
				.filter((r) => r.query.get('Purchase') === '1')
				.map((r) => (JSON.parse(r.body) as IDataObject[]).map((record) => record.Address));
		expect(purchases(a)).toEqual([[records[0].Address, records[2].Address]]);
		expect(purchases(b)).toEqual([[records[1].Address, records[3].Address]]);
	});

	test('Preview: one quote per list, each paired with its own items, nothing charged', async () => {
		const { a, b, records } = await overTwoLists();
		const before = await charges(TOKENS.main);
		const result = await run(sb, perItemList({ chargeMode: 'preview' }), records);
		expect(result.error).toBeUndefined();
		expect(result.json.map((item) => [item.ListID, item.records])).toEqual([
			[a, 2],
			[b, 2],
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			[{ item: 0 }, { item: 2 }],
			[{ item: 1 }, { item: 3 }],
		]);
		expect(await charges(TOKENS.main)).toEqual(before);
	});

	test("the lists' free quotes travel at once, before anything is bought; then each list's batch, one after another", async () => {
		const { a, b, records } = await overTwoLists();
		let quoting = 0;
		let together = 0;
		let bothAsked = () => {};
		const asked = new Promise<void>((resolve) => (bothAsked = resolve));
		for (const list of [a, b])
			sb.faults.push({
				method: 'POST',
				pathPrefix: `/v1/lists/${list}/import/items`,
				query: { Purchase: '0' },
				count: 1,
				// Held until both quotes have come: they can only both come if they were sent together.
				beforeForward: async () => {
					together = Math.max(together, ++quoting);
					if (quoting === 2) bothAsked();
					await Promise.race([asked, sleep(5_000)]);
				},
			});
		const result = await runOk(sb, perItemList({ chargeMode: 'purchase', maxCost: 10 }), records);
		expect(together).toBe(2);
		expect(result.every((item) => item.imported === true)).toBe(true);
		const posts = sb.requests
			.filter((r) => r.method === 'POST' && r.path.endsWith('/import/items'))
			.map((r) => `${r.path.split('/')[3]}:${r.query.get('Purchase')}`);
		expect(new Set(posts.slice(-4, -2))).toEqual(new Set([`${a}:0`, `${b}:0`]));
		expect(posts.slice(-2)).toEqual([`${a}:1`, `${b}:1`]);
	});

	test('a Max Cost that covers one list but not both refuses the whole import: nothing is sent for purchase in either list', async () => {
		const { a, b, records } = await overTwoLists();
		const before = await charges(TOKENS.main);
		// Two records at the list price of an imported record ($0.05) fit; four do not.
		const result = await run(sb, perItemList({ chargeMode: 'purchase', maxCost: 0.1 }), records);
		expect(result.error?.message).toBe('Purchase refused: over Max Cost');
		expect(result.error?.description).toContain('The import of 4 records was not started.');
		for (const list of [a, b])
			expect(
				sb.sent(`/v1/lists/${list}/import/items`).filter((r) => r.query.get('Purchase') === '1'),
			).toHaveLength(0);
		expect(await charges(TOKENS.main)).toEqual(before);
	});

	test("the second list's batch fails after the service imported it: the first list's records are output and charged, the second's say they may have been, the run fails carrying them all", async () => {
		const { a, b, records } = await overTwoLists();
		const before = await charges(TOKENS.main);
		sb.faults.push({
			method: 'POST',
			pathPrefix: `/v1/lists/${b}/import/items`,
			query: { Purchase: '1' },
			count: 1,
			status: 502,
			statusAfterForward: true,
		});
		const result = await run(sb, perItemList({ chargeMode: 'purchase', maxCost: 10 }), records);
		expect(result.error?.message).toContain('502');
		expect(result.error?.description).toContain('The import stopped after 2 records were imported');
		const carried = (result.error?.context?.data ?? []) as IDataObject[];
		expect(carried.map((item) => item.imported)).toEqual([true, false, true, false]);
		expect(carried[1].description).toContain('may have been imported and charged');
		expect(await importedInto(a)).toHaveLength(2);
		const charged = (await charges(TOKENS.main)).log.slice(before.log.length);
		expect(charged.map((entry) => entry.quantity)).toEqual([2, 2]);
	});

	test('Options that differ by item are refused before anything is sent, naming the field and both values', async () => {
		const { a, b, records } = await overTwoLists();
		const sentBefore = sb.requests.length;
		const result = await run(
			sb,
			perItemList({
				chargeMode: 'purchase',
				maxCost: 10,
				importOptions: { batchSize: '={{ $itemIndex + 1 }}' },
			}),
			records,
		);
		expect(result.error?.message).toBe(
			'Options: one value for the whole import; the item at index 1 gives {"batchSize":2} where the first item gave {"batchSize":1}',
		);
		expect(result.error?.description).toContain('Nothing was sent and nothing was charged.');
		expect(sb.requests.length).toBe(sentBefore);
		expect(await importedInto(a)).toHaveLength(0);
		expect(await importedInto(b)).toHaveLength(0);
	});

	test('a second list that is not an API import list is refused before anything is bought, in the first list too', async () => {
		const a = await importList();
		const staticList = await createList(sb, { listName: 'static', listType: 'static' });
		const records = (await realAddresses(sb, 2)).map((record, i) => ({
			...record,
			listId: i ? staticList : a,
		}));
		const before = await charges(TOKENS.main);
		const result = await run(sb, perItemList({ chargeMode: 'purchase', maxCost: 10 }), records);
		expect(result.error?.message).toBe(
			`List ${staticList} is not an import list that takes API imports`,
		);
		expect(await importedInto(a)).toHaveLength(0);
		expect(await charges(TOKENS.main)).toEqual(before);
	});
});
