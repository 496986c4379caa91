/**
 * n8n's "On Error: Continue (using error output)" (`onError: 'continueErrorOutput'`): n8n gives the
 * node a second output, Error, and moves to it every output item that is an error item. n8n's
 * engine decides which items those are (WorkflowExecute's `handleNodeErrorOutput`): an item that
 * carries an `error`, or whose json holds nothing but `error`, `message` and `details` (an item
 * given an `error` of its own loses its other fields). It merges into such an item the json of the
 * input item its pairing names as an object, another node's `_charge` among them; the node pairs
 * its error items by index alone, so that none carries another node's fields. Each failure the
 * node reports as an item of its own (the item loop, List Item > Add, Import's records) goes
 * there, its message as `error` and the rest (description, HTTP code, the input's PropID, this
 * node's `_charge`, ...) under `details`; what succeeded stays on Success.
 */
import type { IDataObject } from 'n8n-workflow';

import { runChain, runNode, TOKENS, type NodeRun } from '../support/harness';
import {
	chargedRecordsSince,
	createImportList,
	createList,
	importInto,
	onSecondImportBatch,
	propertyPurchase,
	sandboxCharges,
	useEngineSandbox,
} from '../support/helpers';

const sb = useEngineSandbox();

const withErrorOutput = (parameters: IDataObject, items: IDataObject[]): Promise<NodeRun> =>
	runNode(parameters, {
		credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
		items,
		nodeSettings: { onError: 'continueErrorOutput' },
	});

// n8n-workflow's forms of a pairing: `{ item }`, or the item's index alone.
const pairedTo = (run: NodeRun['items']) =>
	run.map((item) =>
		typeof item.pairedItem === 'number'
			? item.pairedItem
			: (item.pairedItem as { item: number }).item,
	);

test('the item loop: an item that fails goes to the Error output without its input fields, the others stay on Success, each paired to its item', async () => {
	const result = await withErrorOutput(
		{ resource: 'property', operation: 'get', propId: '={{ $json.id }}', chargeMode: 'preview' },
		[
			{ id: 'P000001', row: 'a' },
			{ id: 'NOPE-1', row: 'b' },
			{ id: 'P000002', row: 'c' },
		],
	);
	expect(result.error).toBeUndefined();
	expect(pairedTo(result.items)).toEqual([0, 2]);
	expect(result.json.every((json) => json.preview === true)).toBe(true);
	expect(pairedTo(result.errorOutput)).toEqual([1]);
	expect(result.errorOutput[0].json).toEqual({
		error: 'Property NOPE-1 does not exist or belongs to another account',
		details: {
			httpCode: '404',
			description: expect.stringContaining('Check the ID of property NOPE-1'),
		},
	});
});

test('an input refused before anything is sent goes to the Error output too', async () => {
	const result = await withErrorOutput(
		{ resource: 'property', operation: 'get', propId: '={{ $json.id }}', chargeMode: 'preview' },
		[{ id: 'P000003' }, { id: ['P000004'] }],
	);
	expect(pairedTo(result.items)).toEqual([0]);
	expect(pairedTo(result.errorOutput)).toEqual([1]);
	expect(result.errorOutput[0].json).toEqual({
		error: expect.stringMatching(/^Property ID: /),
	});
});

test('List Item > Add: an item whose list is not static goes to the Error output, the item adding to a static list stays on Success', async () => {
	const staticList = await createList(sb, { listName: 'Error output static', listType: 'static' });
	const dynamicList = await createList(sb, {
		listName: 'Error output dynamic',
		listType: 'dynamic',
		criteriaMode: 'json',
		criteriaJson: '[{"name":"State","value":["WA"]}]',
	});
	const result = await withErrorOutput(
		{
			resource: 'listItem',
			operation: 'add',
			listId: { __rl: true, mode: 'id', value: '={{ $json.list }}' },
			addBy: 'propIds',
			propIds: '={{ $json.ids }}',
		},
		[
			{ list: String(staticList), ids: 'P000011' },
			{ list: String(dynamicList), ids: 'P000012' },
		],
	);
	expect(result.error).toBeUndefined();
	expect(pairedTo(result.items)).toEqual([0]);
	expect(result.json[0]).toMatchObject({ ListID: staticList, PropIDs: ['P000011'] });
	expect(pairedTo(result.errorOutput)).toEqual([1]);
	expect(result.errorOutput[0].json).toMatchObject({
		error: expect.stringContaining(String(dynamicList)),
	});
	expect(result.errorOutput[0].json.list).toBeUndefined();
});

describe('Import Record > Import', () => {
	const importWithErrorOutput = (listId: number, items: IDataObject[], options: IDataObject = {}) =>
		withErrorOutput(
			importInto(listId, { mapping: 'auto', chargeMode: 'purchase', maxCost: 10, ...options }),
			items,
		);
	const rows = (count: number, from = 0) =>
		Array.from({ length: count }, (_, i) => ({
			Address: `${from + i + 1} Error Output Way`,
			City: 'Portland',
			State: 'OR',
			row: from + i,
		}));

	test('a record with no record field goes to the Error output, not sent and not charged; the imported records stay on Success', async () => {
		const listId = await createImportList(sb, 'Error output import');
		const items = [...rows(2), { row: 2, note: 'no address' }, ...rows(1, 3)];
		const result = await importWithErrorOutput(listId, items);
		expect(result.error).toBeUndefined();
		expect(pairedTo(result.items)).toEqual([0, 1, 3]);
		expect(result.json.every((json) => json.imported === true)).toBe(true);
		expect(pairedTo(result.errorOutput)).toEqual([2]);
		expect(result.errorOutput[0].json).toMatchObject({
			error: 'Not imported: the item at index 2 has no record field to send',
			details: { imported: false },
		});
		expect(String((result.errorOutput[0].json.details as IDataObject).description)).toContain(
			'This item was not sent and not charged',
		);
	});

	test('a batch the service refuses: its records and the later ones go to the Error output, each saying what happened to the money; the records bought before stay on Success', async () => {
		const listId = await createImportList(sb, 'Error output refused batch');
		onSecondImportBatch(sb, listId, {
			status: 402,
			body: {
				error: 'Insufficient Balance',
				eventid: 'abc-def-ghi',
				message: 'Add balance to continue.',
			},
		});
		const before = (await sandboxCharges(sb)).log.length;
		const result = await importWithErrorOutput(listId, rows(6), {
			importOptions: { batchSize: 2 },
		});
		expect(result.error).toBeUndefined();
		expect(pairedTo(result.items)).toEqual([0, 1]);
		expect(result.json.every((json) => json.imported === true)).toBe(true);
		expect(pairedTo(result.errorOutput)).toEqual([2, 3, 4, 5]);
		const [inBatch, , later] = result.errorOutput.map((item) => item.json);
		expect(inBatch).toMatchObject({
			error: 'Insufficient balance on the PropRadar account',
			details: {
				imported: false,
				httpCode: '402',
				record: { Address: '3 Error Output Way', City: 'Portland', State: 'OR' },
			},
		});
		expect(String((inBatch.details as IDataObject).description)).toContain(
			'The 2 records of this batch were not imported and not charged. 2 records were imported and charged before this batch',
		);
		expect(later).toMatchObject({
			error: 'Not imported: an earlier batch of this import failed',
			details: { imported: false },
		});
		expect(String((later.details as IDataObject).description)).toContain(
			'This record was not sent and not charged',
		);
		// Only the first batch's two records were charged.
		expect(await chargedRecordsSince(sb, before)).toBe(2);
	});

	test('a batch whose answer is lost after the service took it: its records go to the Error output saying they may have been imported and charged, the later ones that they were not sent', async () => {
		const listId = await createImportList(sb, 'Error output lost answer');
		onSecondImportBatch(sb, listId, { dropAfterForward: true });
		const before = (await sandboxCharges(sb)).log.length;
		const result = await importWithErrorOutput(listId, rows(6), {
			importOptions: { batchSize: 2 },
		});
		expect(result.error).toBeUndefined();
		expect(pairedTo(result.items)).toEqual([0, 1]);
		expect(pairedTo(result.errorOutput)).toEqual([2, 3, 4, 5]);
		const [inBatch, , later] = result.errorOutput.map((item) => item.json);
		expect(String((inBatch.details as IDataObject).description)).toContain(
			'The 2 records of this batch may have been imported and charged; look at the import list before sending them again.',
		);
		expect(String((later.details as IDataObject).description)).toContain(
			'This record was not sent and not charged',
		);
		// The lost batch was charged by the service: four records in all, each batch once.
		expect(await chargedRecordsSince(sb, before)).toBe(4);
	});

	test('an import refused as a whole (the list does not take API imports): every item goes to the Error output, nothing charged', async () => {
		const listId = await createList(sb, {
			listName: 'Error output static target',
			listType: 'static',
		});
		const before = (await sandboxCharges(sb)).log.length;
		const result = await importWithErrorOutput(listId, rows(3));
		expect(result.items).toEqual([]);
		expect(pairedTo(result.errorOutput)).toEqual([0, 1, 2]);
		expect(result.errorOutput[0].json).toMatchObject({
			error: `List ${listId} is not an import list that takes API imports`,
		});
		expect((await sandboxCharges(sb)).log.slice(before)).toEqual([]);
	});
});

test('a purchase refused whole by Max Cost sends every item to the Error output, and says above the output that nothing was charged', async () => {
	const result = await withErrorOutput(
		{
			resource: 'property',
			operation: 'get',
			propId: '={{ $json.id }}',
			chargeMode: 'purchase',
			maxCost: 0.05,
		},
		[{ id: 'P000005' }, { id: 'P000006' }],
	);
	expect(result.error).toBeUndefined();
	expect(result.items).toEqual([]);
	expect(pairedTo(result.errorOutput)).toEqual([0, 1]);
	const hints = result.run.data.resultData.runData.PropRadar[0].hints ?? [];
	expect(hints).toContainEqual(
		expect.objectContaining({
			type: 'warning',
			message:
				'Purchase refused: over Max Cost: none of the 2 items was processed, and nothing was charged; each is an error item on the Error output.',
		}),
	);
});

describe("each item carries only this node's own _charge", () => {
	// What Property > Search's bought records carry: an upstream node's charge.
	const searchCharge = { totalCost: '0.60', resultCount: 3, runTotalCost: '0.60' };
	const bought = (propId: string, row: number) => ({ PropID: propId, row, _charge: searchCharge });
	const errorDetails = (item: { json: IDataObject }) => item.json.details as IDataObject;

	test("a Max Cost refusal after a purchase node: the error items carry no field of the input item, this node's _charge (nothing charged) and the input's PropID under details, each still paired to its input item", async () => {
		const search = {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR"]}]',
			returnAll: false,
			limit: 2,
			chargeMode: 'purchase',
			maxCost: 5,
		};
		const [searched, got] = await runChain(
			[search, { ...propertyPurchase('={{ $json.PropID }}', 0.01) }],
			{
				credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
				nodeSettings: { onError: 'continueErrorOutput' },
			},
		);
		expect(searched.json).toHaveLength(2);
		expect(searched.json[0]._charge).toMatchObject({ resultCount: 2 });
		expect(got.items).toEqual([]);
		expect(pairedTo(got.errorOutput)).toEqual([0, 1]);
		got.errorOutput.forEach((item, index) => {
			expect(item.json).toEqual({
				error: 'Purchase refused: over Max Cost',
				details: {
					PropID: searched.json[index].PropID,
					description: expect.stringContaining('Nothing was charged'),
					_charge: { totalCost: '0.00', resultCount: 0, runTotalCost: '0.00' },
				},
			});
		});
	});

	test('an item the service refuses goes to the Error output with its own _charge, the bought item stays on Success with the charge of its purchase', async () => {
		const result = await withErrorOutput(propertyPurchase('={{ $json.PropID }}', 5), [
			bought('P000021', 0),
			bought('NOPE-21', 1),
		]);
		expect(pairedTo(result.items)).toEqual([0]);
		expect(result.json[0]._charge).not.toEqual(searchCharge);
		expect(pairedTo(result.errorOutput)).toEqual([1]);
		const [refused] = result.errorOutput;
		expect(refused.json.row).toBeUndefined();
		expect(refused.json._charge).toBeUndefined();
		expect(errorDetails(refused)).toMatchObject({
			PropID: 'NOPE-21',
			httpCode: '404',
			_charge: {
				totalCost: '0.00',
				resultCount: 0,
				runTotalCost: (result.json[0]._charge as IDataObject).runTotalCost,
			},
		});
	});

	test('a purchase whose answer is lost: its error item says its charge is unknown, and why', async () => {
		sb.faults.push({
			pathPrefix: '/v1/properties/P000022',
			method: 'GET',
			query: { Purchase: '1' },
			count: 1,
			dropAfterForward: true,
		});
		const result = await withErrorOutput(propertyPurchase('={{ $json.PropID }}', 5), [
			bought('P000022', 0),
		]);
		const [lost] = result.errorOutput;
		expect(lost.json.error).toBe(
			'The connection to PropRadar failed during a purchase: it may have been charged',
		);
		expect(errorDetails(lost)._charge).toEqual({
			totalCost: 'unknown',
			resultCount: 0,
			runTotalCost: expect.not.stringMatching(/^0\.00$/),
			notice: expect.stringContaining('may have been charged'),
		});
	});

	test('with "On Error: Continue" the error item carries the input\'s PropID and no _charge: one beside the fields marks a record this node bought', async () => {
		const result = await runNode(propertyPurchase('={{ $json.PropID }}', 0.01), {
			credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
			items: [bought('P000023', 0)],
			continueOnFail: true,
		});
		expect(result.json).toEqual([
			{
				PropID: 'P000023',
				error: 'Purchase refused: over Max Cost',
				description: expect.stringContaining('Nothing was charged'),
			},
		]);
	});

	test('a failure outside a purchase run carries no _charge at all', async () => {
		const result = await withErrorOutput(
			{
				resource: 'property',
				operation: 'get',
				propId: '={{ $json.PropID }}',
				chargeMode: 'preview',
			},
			[bought('NOPE-24', 0)],
		);
		expect(result.errorOutput[0].json).toEqual({
			error: 'Property NOPE-24 does not exist or belongs to another account',
			details: { PropID: 'NOPE-24', httpCode: '404', description: expect.any(String) },
		});
	});
});

test("a node after the Error output reaches each error item's input item through n8n's paired items", async () => {
	const [, after] = await runChain(
		[
			propertyPurchase('={{ $json.PropID }}', 0.01),
			{
				resource: 'property',
				operation: 'get',
				propId: "={{ $('Items').item.json.PropID }}",
				chargeMode: 'preview',
			},
		],
		{
			credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
			items: [{ PropID: 'P000031' }, { PropID: 'P000032' }],
			nodeSettings: { onError: 'continueErrorOutput' },
			chainOnErrorOutput: true,
		},
	);
	expect(after.errorOutput).toEqual([]);
	expect(after.json.map((json) => json.PropID)).toEqual(['P000031', 'P000032']);
});
