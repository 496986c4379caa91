import type { IDataObject } from 'n8n-workflow';

import { runChain, TOKENS } from '../support/harness';
import { addToList, createList, listRef, run, runOk, useEngineSandbox } from '../support/helpers';

/**
 * The key fields of the operations keyed by one property or one person start empty, and empty reads
 * the input item (issue 38): a Property ID its `PropID`, a Person Key its `PersonKey`, as List
 * Item > Add's Property IDs does. A node dropped after one that
 * gives properties or owners works on each of them without the field being filled in. The
 * parameters below leave the key out, as a node freshly added in the editor has it.
 */
const sb = useEngineSandbox();

/** The paths of the requests sent since `before` (an index into the proxy's record). */
const pathsSince = (before: number) => sb.requests.slice(before).map((request) => request.path);

test('Search > Get Owners > Purchase Phone, no key filled in: each node works on what the node before gave it', async () => {
	const propIds = ['P000710', 'P000711'];
	const before = sb.requests.length;
	const [search, owners, phones] = await runChain(
		[
			{
				resource: 'property',
				operation: 'search',
				criteriaMode: 'json',
				criteriaJson: JSON.stringify([{ name: 'PropID', value: propIds }]),
				returnAll: true,
				chargeMode: 'purchase',
				maxCost: 5,
			},
			{ resource: 'person', operation: 'getOwners', chargeMode: 'purchase', maxCost: 5 },
			{ resource: 'person', operation: 'purchasePhone', chargeMode: 'preview' },
		],
		{ credentials: { baseUrl: sb.url, accessToken: TOKENS.second } },
	);
	for (const step of [search, owners, phones]) expect(step.error).toBeUndefined();
	expect(search.json.map((property) => property.PropID).sort()).toEqual(propIds);
	const sent = pathsSince(before);
	// A purchase is quoted, then bought: each property's owners are asked for more than once.
	expect([...new Set(sent.filter((path) => path.endsWith('/persons')))].sort()).toEqual(
		propIds.map((propId) => `/v1/properties/${propId}/persons`),
	);

	const personKeys = owners.json.map((owner) => String(owner.PersonKey));
	expect(personKeys.length).toBeGreaterThanOrEqual(propIds.length);
	expect(phones.json.map((quote) => quote.PersonKey)).toEqual(personKeys);
	expect(phones.json.every((quote) => quote.preview === true)).toBe(true);
	expect(sent.filter((path) => path.endsWith('/Phone')).sort()).toEqual(
		personKeys.map((key) => `/v1/persons/${key}/Phone`).sort(),
	);
});

test.each([
	['property', 'get', '/v1/properties/P000712'],
	['property', 'getEvictions', '/v1/properties/P000712/evictions'],
	['property', 'getComps', '/v1/properties/P000712/comps/sales'],
	['property', 'getParcels', '/v1/properties/P000712/parcels'],
	['property', 'getTransactions', '/v1/properties/P000712/transactions'],
	['person', 'getOwners', '/v1/properties/P000712/persons'],
])(
	"%s > %s without a Property ID reads the input item's PropID",
	async (resource, operation, path) => {
		const before = sb.requests.length;
		const [quote] = await runOk(
			sb,
			{
				resource,
				operation,
				chargeMode: 'preview',
				...(operation === 'getComps' ? { compsKind: 'sales' } : {}),
			},
			[{ PropID: 'P000712' }],
		);
		expect(quote).toMatchObject({ preview: true });
		expect(pathsSince(before)).toEqual([path]);
	},
);

test("a Property ID and a Person Key set empty read the input item's own field, and the old default still works", async () => {
	const before = sb.requests.length;
	for (const propId of ['', '={{ $json.PropID }}']) {
		const [quote] = await runOk(
			sb,
			{ resource: 'property', operation: 'get', propId, chargeMode: 'preview' },
			[{ PropID: 'P000713' }],
		);
		expect(quote).toMatchObject({ preview: true });
	}
	const [phone] = await runOk(
		sb,
		{ resource: 'person', operation: 'purchasePhone', personKey: '', chargeMode: 'preview' },
		[{ PersonKey: 'K000713A' }],
	);
	expect(phone).toMatchObject({ preview: true, PersonKey: 'K000713A' });
	expect(pathsSince(before)).toEqual([
		'/v1/properties/P000713',
		'/v1/properties/P000713',
		'/v1/persons/K000713A/Phone',
	]);
});

test("List Item > Remove without a Property ID removes each input item's PropID", async () => {
	const listId = await createList(sb, { listName: 'Key defaults', listType: 'static' });
	await addToList(sb, listId, 'P000713,P000714,P000715');
	const removed = await runOk(
		sb,
		{ resource: 'listItem', operation: 'remove', listId: listRef(listId) },
		[{ PropID: 'P000713' }, { PropID: 'P000715' }],
	);
	expect(removed.map((item) => item.PropID)).toEqual(['P000713', 'P000715']);
	const left = await runOk(sb, {
		resource: 'listItem',
		operation: 'getMany',
		listId: listRef(listId),
		returnAll: true,
	});
	expect(left.map((item) => item.PropID)).toEqual(['P000714']);
});

test.each([
	['purchasePhone', 'Phone', {}],
	['purchaseEmail', 'Email', {}],
	['getRecords', 'liens', { recordKind: 'liens', returnAll: true }],
])(
	"Person > %s without a Person Key reads the input item's PersonKey",
	async (operation, last, extra: IDataObject) => {
		const [owner] = await runOk(sb, {
			resource: 'person',
			operation: 'getOwners',
			propId: 'P000716',
			chargeMode: 'purchase',
			maxCost: 5,
		});
		const key = String(owner.PersonKey);
		const before = sb.requests.length;
		const [quote] = await runOk(
			sb,
			{ resource: 'person', operation, chargeMode: 'preview', ...extra },
			[{ PersonKey: key }],
		);
		expect(quote).toMatchObject({ preview: true });
		expect(pathsSince(before)).toEqual([`/v1/persons/${key}/${last}`]);
	},
);

test('an input item without the key is refused naming the field, nothing sent', async () => {
	const before = sb.requests.length;
	const noPropId = await run(
		sb,
		{ resource: 'person', operation: 'getOwners', chargeMode: 'preview' },
		[{ id: 'P000717' }],
	);
	expect(noPropId.error?.message).toBe('Property ID is empty and the input item has no PropID');
	const noPersonKey = await run(
		sb,
		{ resource: 'person', operation: 'purchasePhone', chargeMode: 'preview' },
		[{ PropID: 'P000717' }],
	);
	expect(noPersonKey.error?.message).toBe(
		'Person Key is empty and the input item has no PersonKey',
	);
	expect(pathsSince(before)).toEqual([]);
});
