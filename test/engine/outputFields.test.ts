/**
 * Simplify (the node) and Output (its tool variant): which fields of each record reach the output
 * (n8n's UX guidelines, "Simplifying output fields"). Both pick from what Fields returned: the
 * request and what it is charged stay the same, the ID and a bought record's `_charge` are always
 * kept, and a preview's quote is never cut.
 */
import type { IDataObject } from 'n8n-workflow';

import { SIMPLIFIED_FIELDS } from '../../nodes/PropRadar/shared/vocabulary';
import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { registerNodeType, runNode, TOKENS, type NodeRun } from '../support/harness';
import {
	addToList,
	createImportList,
	createList,
	importInto,
	listRef,
	propertyPurchase,
	runOk,
	sandboxCharges,
	useEngineSandbox,
} from '../support/helpers';

const TOOL = 'n8n-nodes-propradar.propRadarTool';
// Named as n8n names the tool variant it makes of a node (`convertNodeToAiTool`), so that the
// editor's rule "@tool" shows Output, and n8n keeps its value, as in a real n8n.
const tool = new PropRadar();
tool.description = { ...tool.description, name: `${tool.description.name}Tool` };
registerNodeType(TOOL, tool);

const sb = useEngineSandbox();
beforeEach(() => {
	sb.faults.length = 0;
	sb.requests.length = 0;
});

const allFields = { fields: { fieldsets: ['All'] } };
const PROPERTY_SIMPLIFIED: readonly string[] = SIMPLIFIED_FIELDS.property;
const chargeCount = async () => (await sandboxCharges(sb)).log.length;
const asTool = (parameters: IDataObject, items?: IDataObject[]): Promise<NodeRun> =>
	runNode(parameters, {
		credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
		nodeType: TOOL,
		items,
	});
/** The record's fields other than what a purchase cost. */
const fieldsOf = (record: IDataObject) => Object.keys(record).filter((key) => key !== '_charge');
/** What Simplify keeps of `raw`: the table's fields it has, in the table's order. */
const simplifiedOf = (raw: IDataObject, table: readonly string[]) =>
	table.filter((field) => Object.hasOwn(raw, field));

/** The node at its newest version (1.1), the one Simplify is on; version 1 has none, and keeps whole records. */
async function runLatest(parameters: IDataObject, items?: IDataObject[]): Promise<IDataObject[]> {
	const result = await runNode(parameters, {
		credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
		items,
		nodeSettings: { typeVersion: 1.1 },
	});
	if (result.error) throw new Error(`node failed: ${result.error.message}`);
	return result.json;
}

describe('Simplify', () => {
	test('Property > Get with the All fieldset: at most 10 fields, PropID and _charge kept, the same request and one charge as without it', async () => {
		const before = await chargeCount();
		const [raw] = await runOk(sb, { ...propertyPurchase('P000701'), ...allFields });
		const [simple] = await runLatest({
			...propertyPurchase('P000702'),
			...allFields,
			simple: true,
		});
		expect(fieldsOf(raw).length).toBeGreaterThan(100);
		expect(fieldsOf(simple)).toEqual(simplifiedOf(raw, SIMPLIFIED_FIELDS.property));
		expect(fieldsOf(simple).length).toBeLessThanOrEqual(10);
		expect(simple).toMatchObject({ PropID: 'P000702', Address: expect.any(String) });
		expect(simple._charge).toMatchObject({ totalCost: expect.any(String), resultCount: 1 });
		const purchases = sb.requests.filter((request) => request.query.get('Purchase') === '1');
		expect(purchases.map((request) => request.query.get('Fields'))).toEqual(['All', 'All']);
		const charges = (await sandboxCharges(sb)).log.slice(before);
		expect(charges.map((entry) => [entry.what, entry.quantity])).toEqual([
			['property P000701', 1],
			['property P000702', 1],
		]);
	});

	test('Property > Search: each bought record simplified, with its _charge; the preview keeps its whole quote', async () => {
		const search = {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR"]}]',
			returnAll: false,
			limit: 3,
			simple: true,
		};
		const [quote] = await runLatest(search);
		expect(quote).toMatchObject({ preview: true, maxCostNeeded: expect.any(String) });
		expect(quote).toHaveProperty('totalResultCount');
		const records = await runLatest({ ...search, chargeMode: 'purchase', maxCost: 5 });
		expect(records).toHaveLength(3);
		for (const record of records) {
			expect(fieldsOf(record).length).toBeLessThanOrEqual(10);
			expect(fieldsOf(record).every((field) => PROPERTY_SIMPLIFIED.includes(field))).toBe(true);
			expect(record).toHaveProperty('PropID');
			expect(record).toHaveProperty('_charge');
		}
	});

	test("Person > Get Owners: the owner's PersonKey, name and contacts, with _charge; the input item's keys still carried", async () => {
		const owners = await runLatest(
			{
				resource: 'person',
				operation: 'getOwners',
				chargeMode: 'purchase',
				maxCost: 5,
				simple: true,
			},
			[{ PropID: 'P000703', ListID: 12 }],
		);
		expect(owners.length).toBeGreaterThan(0);
		for (const owner of owners) {
			expect(owner).toMatchObject({ PropID: 'P000703', ListID: 12, PersonKey: expect.any(String) });
			expect(owner).toHaveProperty('_charge');
			expect(fieldsOf(owner).filter((field) => field !== 'ListID').length).toBeLessThanOrEqual(10);
			expect(owner).not.toHaveProperty('Occupation');
		}
	});

	test('List Item > Get Many with a fieldset, List > Get and Get Many, Import Record > Get Many: at most 10 fields, the ID first', async () => {
		const listId = await createList(sb, { listName: 'Simplify: list items', listType: 'static' });
		await addToList(sb, listId, 'P000704,P000705');
		const [item] = await runLatest({
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
			fields: { fieldsets: ['Card'] },
			simple: true,
		});
		expect(fieldsOf(item)[0]).toBe('PropID');
		expect(fieldsOf(item).length).toBeLessThanOrEqual(10);
		expect(item).not.toHaveProperty('Persons');

		const [list] = await runLatest({
			resource: 'list',
			operation: 'get',
			listId: listRef(listId),
			simple: true,
		});
		expect(list).toMatchObject({ ListID: listId, ListName: 'Simplify: list items' });
		expect(fieldsOf(list).length).toBeLessThanOrEqual(10);
		const lists = await runLatest({
			resource: 'list',
			operation: 'getMany',
			returnAll: true,
			simple: true,
		});
		expect(
			lists.every((each) => fieldsOf(each)[0] === 'ListID' && fieldsOf(each).length <= 10),
		).toBe(true);

		const importList = await createImportList(sb, 'Simplify: imports');
		await runOk(
			sb,
			{
				...importInto(importList, { mapping: 'auto', chargeMode: 'purchase', maxCost: 1 }),
			},
			[
				{
					Address: '12 Simplify St',
					City: 'Portland',
					State: 'OR',
					FirstName: 'Ann',
					LastName: 'Lee',
				},
			],
		);
		const [imported] = await runLatest({
			resource: 'importRecord',
			operation: 'getMany',
			listId: listRef(importList),
			returnAll: true,
			simple: true,
		});
		expect(fieldsOf(imported)[0]).toBe('ListImportItemID');
		expect(fieldsOf(imported).length).toBeLessThanOrEqual(10);
		expect(imported).not.toHaveProperty('ListID');
	});

	test('a new node (version 1.1) simplifies unless switched off; a version 1 node, as every workflow saved before, keeps whole records', async () => {
		const [byDefault] = await runLatest({ ...propertyPurchase('P000707'), ...allFields });
		expect(fieldsOf(byDefault).length).toBeLessThanOrEqual(10);
		const [off] = await runLatest({ ...propertyPurchase('P000708'), ...allFields, simple: false });
		expect(fieldsOf(off).length).toBeGreaterThan(100);
		const [versionOne] = await runOk(sb, {
			...propertyPurchase('P000709'),
			...allFields,
			simple: true,
		});
		expect(fieldsOf(versionOne).length).toBeGreaterThan(100);
	});

	test('an operation whose records are small has no Simplify: List Item > Remove ignores it', async () => {
		const listId = await createList(sb, { listName: 'Simplify: remove', listType: 'static' });
		await addToList(sb, listId, 'P000706');
		const [removed] = await runLatest({
			resource: 'listItem',
			operation: 'remove',
			listId: listRef(listId),
			propId: 'P000706',
			simple: true,
		});
		expect(removed).toEqual({ deleted: true, ListID: listId, PropID: 'P000706', deleteCount: 1 });
	});
});

describe('Output, as an AI tool', () => {
	test('by default Simplified: a Property > Get purchase with the All fieldset gives the model at most 10 fields, PropID and _charge', async () => {
		const result = await asTool({ ...propertyPurchase('P000707'), ...allFields });
		expect(result.error).toBeUndefined();
		const [record] = result.json;
		expect(fieldsOf(record).length).toBeLessThanOrEqual(10);
		expect(fieldsOf(record).every((field) => PROPERTY_SIMPLIFIED.includes(field))).toBe(true);
		expect(record).toMatchObject({
			PropID: 'P000707',
			_charge: expect.objectContaining({ totalCost: expect.any(String) }),
		});
		const purchase = sb.requests.find((request) => request.query.get('Purchase') === '1');
		expect(purchase?.query.get('Fields')).toBe('All');
	});

	test('Raw gives every field Fields returned; Selected Fields the chosen ones with PropID and _charge', async () => {
		const raw = await asTool({ ...propertyPurchase('P000708'), ...allFields, output: 'raw' });
		expect(fieldsOf(raw.json[0]).length).toBeGreaterThan(100);
		const selected = await asTool({
			...propertyPurchase('P000709'),
			...allFields,
			output: 'selected',
			outputFields: ['AVM', 'City'],
		});
		expect(Object.keys(selected.json[0])).toEqual(['PropID', 'AVM', 'City', '_charge']);
	});

	test('the preview of a tool keeps its whole quote', async () => {
		const result = await asTool({ resource: 'property', operation: 'get', propId: 'P000710' });
		expect(result.json[0]).toMatchObject({
			preview: true,
			PropID: 'P000710',
			maxCostNeeded: expect.any(String),
			pricePerRecord: expect.any(String),
		});
	});

	test('an Output Fields value the records do not have is refused before anything is sent, naming the field', async () => {
		const result = await asTool({
			...propertyPurchase('P000711'),
			output: 'selected',
			outputFields: ['AVM', 'Appraisal'],
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				error: 'Output Fields: "Appraisal" is not allowed',
				description: expect.stringMatching(/^Use any of /),
				charged: 'Nothing was charged in this call.',
			}),
		]);
		expect(sb.requests).toEqual([]);
	});

	test('outside tool use Output is not read: the node returns what Simplify says', async () => {
		const [record] = await runOk(sb, {
			...propertyPurchase('P000712'),
			...allFields,
			output: 'selected',
			outputFields: ['AVM'],
		});
		expect(fieldsOf(record).length).toBeGreaterThan(100);
	});
});
