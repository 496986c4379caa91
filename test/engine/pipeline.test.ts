/**
 * A lead pipeline as users build it: Search (Oregon, Absentee Owner) → Person > Get Owners →
 * Person > Purchase Phone → List Item > Add, one execution through n8n-core's engine against the
 * sandbox, with the free export credits used up. It runs twice and buys no phone twice; a Max Cost
 * too small for a step stops that step before it buys anything, and visibly; the preview of many
 * items says what the whole run needs.
 */
import type { IDataObject } from 'n8n-workflow';

import { runChain, TOKENS, type NodeRun } from '../support/harness';
import { api, createList, listRef, sandboxCharges, useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();
beforeEach(async () => {
	await fetch(`${sb.sandbox.url}/_sandbox/reset`, { method: 'POST' });
});
const chargeLog = async () => (await sandboxCharges(sb)).log;

/** Another client of the same account buys `count` properties (100: the free export credits are gone). */
const useUpCredits = (count = 100) =>
	api(sb, 'POST', `/v1/properties?Purchase=1&Limit=${count}`, {
		Criteria: [{ name: 'State', value: ['WA'] }],
	});

const search = {
	resource: 'property',
	operation: 'search',
	criteriaMode: 'json',
	criteriaJson: '[{"name":"State","value":["OR"]},{"name":"isSameMailingOrExempt","value":[0]}]',
	returnAll: false,
	limit: 3,
	chargeMode: 'purchase',
	maxCost: 5,
};
const getOwners = (maxCost: number) => ({
	resource: 'person',
	operation: 'getOwners',
	propId: '={{ $json.PropID }}',
	chargeMode: 'purchase',
	maxCost,
});
const purchasePhone = {
	resource: 'person',
	operation: 'purchasePhone',
	personKey: '={{ $json.PersonKey }}',
	chargeMode: 'purchase',
	maxCost: 20,
};
const addToList = (listId: number) => ({
	resource: 'listItem',
	operation: 'add',
	listId: listRef(listId),
	addBy: 'propIds',
	propIds: '={{ $json.PropID }}',
});

const pipeline = (listId: number, ownersMaxCost = 5) =>
	runChain([search, getOwners(ownersMaxCost), purchasePhone, addToList(listId)], {
		credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
	});

/** What each node's output says it was charged: each purchase's `_charge.totalCost` once. */
function chargedInOutput(run: NodeRun): number {
	const seen = new Set<string>();
	let cents = 0;
	for (const item of run.json) {
		const note = item._charge as { totalCost: string; runTotalCost: string } | undefined;
		if (!note || seen.has(`${note.totalCost} ${note.runTotalCost}`)) continue;
		seen.add(`${note.totalCost} ${note.runTotalCost}`);
		cents += Math.round(Number(note.totalCost) * 100);
	}
	return cents;
}

const hintsOf = (run: NodeRun, node: string) =>
	(run.run.data.resultData.runData[node]?.[0]?.hints ?? []).map((hint) => hint.message).join(' ');

test('the pipeline runs twice: every item keeps its PropID, and the second run buys no phone again', async () => {
	await useUpCredits();
	const listId = await createList(sb, { listName: 'pipeline twice', listType: 'static' });
	const before = (await chargeLog()).length;

	const first = await pipeline(listId);
	expect(first.map((node) => node.error?.message)).toEqual([
		undefined,
		undefined,
		undefined,
		undefined,
	]);
	const phonesBought = first[2].json;
	expect(phonesBought.length).toBeGreaterThan(0);
	expect(
		phonesBought.every(
			(item) => typeof item.PropID === 'string' && typeof item.PersonKey === 'string',
		),
	).toBe(true);
	const afterFirst = await chargeLog();
	const phoneCharges = afterFirst.slice(before).filter((entry) => entry.kind === 'phone');
	expect(phoneCharges.length).toBe(phonesBought.filter((item) => item.purchased === true).length);

	const second = await pipeline(listId);
	expect(second.map((node) => node.error?.message)).toEqual([
		undefined,
		undefined,
		undefined,
		undefined,
	]);
	// Every phone is owned already: nothing bought, nothing charged, and the item still carries the keys the next node reads.
	const again = second[2].json;
	expect(again.length).toBe(phonesBought.length);
	for (const item of again) {
		expect(item).toMatchObject({ purchased: false, alreadyPurchased: true });
		expect(typeof item.PropID).toBe('string');
		expect(typeof item.PersonKey).toBe('string');
	}
	// A CRM step after Purchase Phone gets the same fields on both runs: each person's phone, on the
	// second run the one owned, as Get Owners' output (the input item) carries it, read at no charge.
	const crmFields = (items: IDataObject[]) =>
		items.map(({ PersonKey, PropID, Phone }) => ({ PersonKey, PropID, Phone }));
	expect(crmFields(again)).toEqual(crmFields(phonesBought));
	expect(phonesBought.every((item) => (item.Phone as unknown[]).length === 1)).toBe(true);
	for (const item of again) expect(item.message).toContain('read at no charge');
	const afterSecond = await chargeLog();
	expect(afterSecond.slice(afterFirst.length).filter((entry) => entry.kind === 'phone')).toEqual(
		[],
	);
	// What the README's "Running a pipeline again" says: Search and Get Owners buy the same records again.
	const quantities = (entries: typeof afterFirst, kind: string) =>
		entries.filter((entry) => entry.kind === kind).reduce((sum, entry) => sum + entry.quantity, 0);
	// (The sandbox logs an owner bought as the kind 'person'.)
	for (const kind of ['property', 'person']) {
		expect(quantities(afterFirst.slice(before), kind)).toBeGreaterThan(0);
		expect(quantities(afterSecond.slice(afterFirst.length), kind)).toBe(
			quantities(afterFirst.slice(before), kind),
		);
	}
	expect(second[3].json.every((item) => !item.error)).toBe(true);
});

test('a Max Cost too small for Get Owners stops the run visibly before Get Owners buys anything; the charges are what the outputs account for', async () => {
	await useUpCredits();
	const listId = await createList(sb, { listName: 'pipeline stopped', listType: 'static' });
	const before = (await chargeLog()).length;
	const [searched, owners, phones, added] = await pipeline(listId, 0.45);
	expect(searched.error).toBeUndefined();
	expect(owners.error?.message).toBe('Purchase refused: over Max Cost');
	expect(owners.error?.description).toMatch(/This run needs up to \$\d+\.\d\d for its 3 items/);
	expect(owners.error?.description).toContain('Nothing was bought');
	// The execution failed at Get Owners: no item went on to the nodes after it.
	expect(owners.json).toEqual([]);
	expect(phones.json).toEqual([]);
	expect(added.json).toEqual([]);
	expect(owners.run.data.resultData.error?.message).toBe('Purchase refused: over Max Cost');
	const entries = (await chargeLog()).slice(before);
	expect(entries.every((entry) => entry.kind === 'property')).toBe(true);
	expect(entries.reduce((sum, entry) => sum + entry.cents, 0)).toBe(chargedInOutput(searched));
});

describe('the preview of many items', () => {
	const items = ['P000106', 'P000110', 'P000112', 'P000120', 'P000130', 'P000140'].map((id) => ({
		PropID: id,
	}));
	const owners = { resource: 'person', operation: 'getOwners', propId: '={{ $json.PropID }}' };
	const runOwners = (parameters: IDataObject) =>
		runChain([{ ...owners, ...parameters }], {
			credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
			items,
		});

	test('says above the output the run total at full price, the Max Cost a purchase of all items needs, and that Max Cost buys them', async () => {
		await useUpCredits();
		const [preview] = await runOwners({ chargeMode: 'preview' });
		const total = preview.json.reduce(
			(sum, quote) => sum + Math.round(Number(quote.maxCostNeeded) * 100),
			0,
		);
		const records = preview.json.reduce((sum, quote) => sum + Number(quote.resultCount), 0);
		expect(preview.json.every((quote) => quote.pricePerRecord === '0.15')).toBe(true);
		const hint = hintsOf(preview, 'PropRadar');
		expect(hint).toContain(
			`Run total of this preview: 6 quotes, ${records} charged records at $0.15 each`,
		);
		expect(hint).toContain(`needs Max Cost of at least $${(total / 100).toFixed(2)}`);

		const refused = await runOwners({ chargeMode: 'purchase', maxCost: (total - 1) / 100 });
		expect(refused[0].error?.description).toContain(
			`Set Max Cost to at least $${(total / 100).toFixed(2)}`,
		);
		const [bought] = await runOwners({ chargeMode: 'purchase', maxCost: total / 100 });
		expect(bought.error).toBeUndefined();
		expect(bought.json).toHaveLength(records);
	});

	test('with free credits left for all of it, the preview says nothing would be charged, and the purchase that nothing was and what the same run costs without them', async () => {
		const [preview] = await runOwners({ chargeMode: 'preview' });
		const total = preview.json.reduce(
			(sum, quote) => sum + Math.round(Number(quote.maxCostNeeded) * 100),
			0,
		);
		const records = preview.json.reduce((sum, quote) => sum + Number(quote.resultCount), 0);
		// The account's 100 credits cover the six items' owners.
		expect(hintsOf(preview, 'PropRadar')).toContain(
			`Free export credits (100 left) would pay for all ${records} of them today, so nothing would be charged`,
		);
		const [bought] = await runOwners({ chargeMode: 'purchase', maxCost: total / 100 });
		expect(bought.error).toBeUndefined();
		expect(hintsOf(bought, 'PropRadar')).toContain(
			`Free export credits paid for all of this run: nothing was charged. Without them the same run costs $${(total / 100).toFixed(2)} at full price`,
		);
	});

	test('with free credits left for part of it, the preview says what the charge would be, and the purchase what it was', async () => {
		const [preview] = await runOwners({ chargeMode: 'preview' });
		const total = preview.json.reduce(
			(sum, quote) => sum + Math.round(Number(quote.maxCostNeeded) * 100),
			0,
		);
		const records = preview.json.reduce((sum, quote) => sum + Number(quote.resultCount), 0);
		await useUpCredits(98);
		const [again] = await runOwners({ chargeMode: 'preview' });
		expect(hintsOf(again, 'PropRadar')).toContain(
			`Free export credits (2 left) would pay for 2 of them today, so the charge would be about $${(((records - 2) * 15) / 100).toFixed(2)}`,
		);
		const [bought] = await runOwners({ chargeMode: 'purchase', maxCost: total / 100 });
		expect(bought.error).toBeUndefined();
		expect(hintsOf(bought, 'PropRadar')).toContain(
			`Free export credits paid for part of this run: it was charged $${(((records - 2) * 15) / 100).toFixed(2)}. Without them the same run costs $${(total / 100).toFixed(2)} at full price`,
		);
	});
});
