/**
 * Skip Records Bought Before (money/boughtBefore.ts): a pipeline run again pays only for what is
 * new. Get Owners → Purchase Phone over properties given as items (as a free list read gives
 * them), each execution through n8n-core's engine with n8n's de-duplication service started as n8n
 * starts it (test/support/processedData.ts), against the sandbox and its charge log.
 */
import type { IDataObject } from 'n8n-workflow';

import { runChain, TOKENS, type NodeRun } from '../support/harness';
import { api, sandboxCharges, useEngineSandbox } from '../support/helpers';
import {
	clearProcessedData,
	failStoreCall,
	keepProcessed,
	processedCount,
	useProcessedDataStore,
} from '../support/processedData';

const sb = useEngineSandbox();
beforeAll(useProcessedDataStore);
beforeEach(async () => {
	clearProcessedData();
	await fetch(`${sb.sandbox.url}/_sandbox/reset`, { method: 'POST' });
	// Another client of the account uses up the free export credits: every purchase is charged.
	await api(sb, 'POST', `/v1/properties?Purchase=1&Limit=100`, {
		Criteria: [{ name: 'State', value: ['WA'] }],
	});
});
const chargeLog = async () => (await sandboxCharges(sb)).log;

const credentials = () => ({ baseUrl: sb.url, accessToken: TOKENS.main });
const skip = (scope = 'node') => ({ skipBoughtBefore: true, boughtBeforeScope: scope });
const getOwners = (maxCost: number, extra: IDataObject = skip()) => ({
	resource: 'person',
	operation: 'getOwners',
	propId: '={{ $json.PropID }}',
	chargeMode: 'purchase',
	maxCost,
	...extra,
});
const purchasePhone = (extra: IDataObject = skip()) => ({
	resource: 'person',
	operation: 'purchasePhone',
	personKey: '={{ $json.PersonKey }}',
	chargeMode: 'purchase',
	maxCost: 20,
	...extra,
});
const properties = (...ids: string[]) => ids.map((PropID) => ({ PropID }));
const hintsOf = (run: NodeRun, node = 'PropRadar') =>
	(run.run.data.resultData.runData[node]?.[0]?.hints ?? []).map((hint) => hint.message);

test('run again, the pipeline sends and charges nothing for what it bought before, and says which items it left out', async () => {
	const items = properties('P000106', 'P000110', 'P000112');
	const before = (await chargeLog()).length;
	const [owners, phones] = await runChain([getOwners(5), purchasePhone()], {
		credentials: credentials(),
		items,
	});
	expect([owners.error, phones.error]).toEqual([undefined, undefined]);
	expect(phones.json.length).toBeGreaterThan(0);
	expect(phones.json.every((item) => item.purchased === true)).toBe(true);
	const firstRun = (await chargeLog()).length;
	expect(firstRun).toBeGreaterThan(before);
	// What was bought is recorded, one key per item bought: three PropIDs, one PersonKey a phone.
	expect(processedCount('test-workflow', 'n:propradar-0')).toBe(3);
	expect(processedCount('test-workflow', 'n:propradar-1')).toBe(phones.json.length);

	const requestsBefore = sb.requests.length;
	const [ownersAgain, phonesAgain] = await runChain([getOwners(5), purchasePhone()], {
		credentials: credentials(),
		items,
	});
	expect(ownersAgain.error).toBeUndefined();
	expect(ownersAgain.json).toEqual([]);
	expect(phonesAgain.json).toEqual([]);
	expect(await chargeLog()).toHaveLength(firstRun);
	// Not even a quote: nothing was sent.
	expect(sb.requests.slice(requestsBefore)).toEqual([]);
	expect(hintsOf(ownersAgain)).toContain(
		'3 of the 3 items left out, nothing sent or charged for them: bought in an earlier ' +
			'execution by this node (Skip Records Bought Before), PropID P000106, P000110, P000112.',
	);
});

test('only the new items are quoted and bought: Max Cost needs to cover only them', async () => {
	await runChain([getOwners(5)], { credentials: credentials(), items: properties('P000106') });
	const items = properties('P000106', 'P000110');
	// What the owners of the new property cost, quoted for free.
	const quote = await api<IDataObject>(sb, 'GET', '/v1/properties/P000110/persons?Purchase=0');
	const newCents = Math.round(Number(quote.body.totalCost) * 100);
	const bothQuote = await api<IDataObject>(sb, 'GET', '/v1/properties/P000106/persons?Purchase=0');
	expect(Number(bothQuote.body.totalCost)).toBeGreaterThan(0);
	const before = (await chargeLog()).length;

	// Without the option, a Max Cost for the new property alone refuses the run of both.
	const [refused] = await runChain([getOwners(newCents / 100, {})], {
		credentials: credentials(),
		items,
	});
	expect(refused.error?.message).toBe('Purchase refused: over Max Cost');
	expect(await chargeLog()).toHaveLength(before);

	const [owners] = await runChain([getOwners(newCents / 100)], {
		credentials: credentials(),
		items,
	});
	expect(owners.error).toBeUndefined();
	expect(new Set(owners.json.map((owner) => owner.PropID))).toEqual(new Set(['P000110']));
	const charged = (await chargeLog()).slice(before);
	expect(charged.reduce((sum, entry) => sum + entry.cents, 0)).toBe(newCents);
	expect(hintsOf(owners).join(' ')).toContain('1 of the 2 items left out');
});

test('a purchase refused by Max Cost is not recorded: the next run with a higher Max Cost buys it', async () => {
	const items = properties('P000106', 'P000110');
	const [refused] = await runChain([getOwners(0.01)], { credentials: credentials(), items });
	expect(refused.error?.message).toBe('Purchase refused: over Max Cost');
	expect(processedCount('test-workflow', 'n:propradar-0')).toBe(0);
	const [bought] = await runChain([getOwners(5)], { credentials: credentials(), items });
	expect(bought.error).toBeUndefined();
	expect(new Set(bought.json.map((owner) => owner.PropID))).toEqual(
		new Set(['P000106', 'P000110']),
	);
});

test('a purchase that fails is not recorded, while the items bought beside it are (On Error: Continue)', async () => {
	const items = properties('P000106', 'P000110');
	// The second property's purchase answers 500 after it reached the service: it may have been charged.
	sb.faults.push({
		pathPrefix: '/v1/properties/P000110/persons',
		query: { Purchase: '1' },
		count: 1,
		status: 500,
	});
	const [owners] = await runChain([getOwners(5)], {
		credentials: credentials(),
		items,
		continueOnFail: true,
	});
	const failed = owners.json.filter((item) => item.error !== undefined);
	expect(failed).toHaveLength(1);
	expect(owners.json.some((item) => item.PropID === 'P000106' && !item.error)).toBe(true);
	expect(processedCount('test-workflow', 'n:propradar-0')).toBe(1);

	const before = (await chargeLog()).length;
	const [again] = await runChain([getOwners(5)], {
		credentials: credentials(),
		items,
		continueOnFail: true,
	});
	expect(again.error).toBeUndefined();
	expect(new Set(again.json.map((owner) => owner.PropID))).toEqual(new Set(['P000110']));
	expect((await chargeLog()).slice(before).length).toBeGreaterThan(0);
	expect(hintsOf(again).join(' ')).toContain('PropID P000106.');
});

test('a phone with none to sell is not recorded as bought', async () => {
	const [owner] = (
		await runChain([getOwners(5, {})], {
			credentials: credentials(),
			items: properties('P000620'),
		})
	)[0].json;
	const key = String(owner.PersonKey);
	sb.faults.push({
		pathPrefix: `/v1/persons/${key}/Phone`,
		query: { Purchase: '0' },
		count: 1,
		status: 200,
		body: { results: [], resultCount: 0, totalCost: '0.00', quantityFreeRemaining: 0 },
	});
	const [phone] = await runChain([purchasePhone()], {
		credentials: credentials(),
		items: [{ PersonKey: key }],
	});
	expect(phone.json).toMatchObject([{ PersonKey: key, purchased: false }]);
	expect(processedCount('test-workflow', 'n:propradar-0')).toBe(0);
});

test('Bought Before By: "This Node" skips what this node bought; "Any Node of This Workflow" also what another node of the same operation bought', async () => {
	const items = properties('P000106');
	// Bought by the workflow's first PropRadar node, recorded for the node and for the workflow.
	await runChain([getOwners(5, skip('workflow'))], { credentials: credentials(), items });
	await runChain([getOwners(5)], { credentials: credentials(), items });
	const before = (await chargeLog()).length;
	const propertyGet = {
		resource: 'property',
		operation: 'get',
		propId: '={{ $json.PropID }}',
		chargeMode: 'purchase',
		maxCost: 5,
		...skip('workflow'),
	};
	// The second node of the chain, another node: with "This Node" it buys.
	const [, byNode] = await runChain([propertyGet, getOwners(5, skip('node'))], {
		credentials: credentials(),
		items,
	});
	expect(byNode.json.length).toBeGreaterThan(0);
	// With "Any Node of This Workflow" it finds what the first run's node bought, and the
	// Property > Get before it, another operation, was not skipped by the owners' key.
	const afterNode = (await chargeLog()).length;
	expect(afterNode).toBeGreaterThan(before);
	const [gotAgain, byWorkflow] = await runChain(
		[{ ...propertyGet, skipBoughtBefore: false }, getOwners(5, skip('workflow'))],
		{ credentials: credentials(), items },
	);
	expect(gotAgain.json).toHaveLength(1);
	expect(byWorkflow.json).toEqual([]);
	const added = (await chargeLog()).slice(afterNode);
	expect(added.map((entry) => entry.kind)).toEqual(['property']);
});

test('a store that fails to record: the records bought are in the output, and a warning says a later execution buys them again', async () => {
	const items = properties('P000106');
	// The first call is the check before buying; the second, the record after it.
	failStoreCall('checkProcessedAndRecord', 1);
	const [owners] = await runChain([getOwners(5)], { credentials: credentials(), items });
	expect(owners.error).toBeUndefined();
	expect(owners.json.length).toBeGreaterThan(0);
	expect(hintsOf(owners).join(' ')).toContain(
		"What this run bought (P000106) is in the output, but n8n's de-duplication store could " +
			'not record it (store unavailable (checkProcessedAndRecord)), so a later execution buys it again.',
	);
});

test('a store that fails before buying: the run fails, nothing sent, nothing charged', async () => {
	const before = (await chargeLog()).length;
	const requestsBefore = sb.requests.length;
	failStoreCall('checkProcessedAndRecord');
	const [owners] = await runChain([getOwners(5)], {
		credentials: credentials(),
		items: properties('P000106'),
	});
	expect(owners.error?.message).toBe('store unavailable (checkProcessedAndRecord)');
	expect(sb.requests.slice(requestsBefore)).toEqual([]);
	expect(await chargeLog()).toHaveLength(before);
});

test('off by default: a saved workflow without the option buys again', async () => {
	const items = properties('P000106');
	const noOption = { ...getOwners(5, {}) };
	await runChain([noOption], { credentials: credentials(), items });
	const before = (await chargeLog()).length;
	const [again] = await runChain([noOption], { credentials: credentials(), items });
	expect(again.json.length).toBeGreaterThan(0);
	expect((await chargeLog()).length).toBeGreaterThan(before);
	expect(processedCount('test-workflow', 'n:propradar-0')).toBe(0);
});

test('n8n keeps the last 10,000 purchases: a run that records past them says how many of the oldest it forgets', async () => {
	const oldest = Array.from(
		{ length: 9_999 },
		(_, index) => `getOwners:P9${String(index).padStart(6, '0')}`,
	);
	keepProcessed('test-workflow', 'n:propradar-0', oldest);
	const [owners] = await runChain([getOwners(5)], {
		credentials: credentials(),
		items: properties('P000106', 'P000110'),
	});
	expect(owners.error).toBeUndefined();
	expect(hintsOf(owners)).toContain(
		"n8n keeps the last 10,000 purchases for Skip Records Bought Before: recording this run's 2 forgets the oldest 1, which a later execution buys again if they come back.",
	);
	expect(processedCount('test-workflow', 'n:propradar-0')).toBe(10_000);
	// Below the limit, no such warning.
	keepProcessed('test-workflow', 'n:propradar-0', oldest.slice(0, 10));
	const [more] = await runChain([getOwners(5)], {
		credentials: credentials(),
		items: properties('P000112'),
	});
	expect(hintsOf(more).join(' ')).not.toContain('n8n keeps the last');
});
