/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Property > Get over many input items reads them through the search's PropID criterion, up to 500
 * properties a request (issue 48): request counts, pairing in input order, not found per item,
 * Fields and PropID, preview, purchase, Max Cost and the ceiling, through n8n-core's engine.
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode, TOKENS, type Fault, type NodeRun } from '../../support/harness';
import { sandboxCharges, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();
beforeEach(async () => {
	sb.faults.length = 0;
	sb.requests.length = 0;
	await fetch(`${sb.sandbox.url}/_sandbox/reset`, { method: 'POST' });
});

const get = { resource: 'property', operation: 'get', propId: '={{ $json.id }}' };
const propIds = (count: number, first = 1) =>
	Array.from({ length: count }, (_, index) => `P${String(first + index).padStart(6, '0')}`);
const itemsOf = (ids: string[]) => ids.map((id) => ({ id }));

function run(
	parameters: IDataObject,
	items: IDataObject[],
	options: { continueOnFail?: boolean; spendingCeiling?: number } = {},
): Promise<NodeRun> {
	return runNode(
		{ ...get, ...parameters },
		{
			credentials: {
				baseUrl: sb.url,
				accessToken: TOKENS.main,
				spendingCeiling: options.spendingCeiling,
			},
			items,
			continueOnFail: options.continueOnFail,
		},
	);
}

const searches = () => sb.sent('/v1/properties', 'POST');
const gets = () => sb.requests.filter((request) => /^\/v1\/properties\/P/.test(request.path));
const asked = (request: { body: string }) =>
	(JSON.parse(request.body) as { Criteria: Array<{ value: string[] }> }).Criteria[0].value;
const chargeLog = async () => (await sandboxCharges(sb, TOKENS.main)).log;

describe('Property > Get over many items', () => {
	test('2,000 items are read in 4 search requests of 500, each item paired with its own record in input order', async () => {
		// Input order is not PropID order: the service answers sorted by PropID.
		const ids = propIds(2000, 101).reverse();
		const result = await run({ chargeMode: 'purchase', maxCost: 200 }, itemsOf(ids));
		expect(result.error).toBeUndefined();
		expect(gets()).toHaveLength(0);
		const purchases = searches().filter((request) => request.query.get('Purchase') === '1');
		const quotes = searches().filter((request) => request.query.get('Purchase') === '0');
		expect(quotes).toHaveLength(4);
		expect(purchases).toHaveLength(4);
		expect(purchases.map((request) => request.query.get('Limit'))).toEqual([
			'500',
			'500',
			'500',
			'500',
		]);
		expect(purchases.map((request) => asked(request).length)).toEqual([500, 500, 500, 500]);
		expect(result.json.map((record) => record.PropID)).toEqual(ids);
		expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual(
			ids.map((_, index) => index),
		);
		// Every record charged once; the log's four entries are the four purchases.
		const log = await chargeLog();
		expect(log.map((entry) => entry.quantity)).toEqual([500, 500, 500, 500]);
		expect(result.json[1999]._charge).toMatchObject({ resultCount: 500 });
	});

	test('preview: each item its own quote of one record, the run total in a hint; 2 requests for 600 items', async () => {
		const ids = propIds(600, 1001);
		const result = await run({ chargeMode: 'preview' }, itemsOf(ids));
		expect(result.error).toBeUndefined();
		expect(searches().map((request) => request.query.get('Purchase'))).toEqual(['0', '0']);
		expect(result.json).toHaveLength(600);
		expect(result.json[0]).toEqual({
			PropID: 'P001001',
			preview: true,
			// The account has 100 free credits: a quote of one record is free today.
			totalCost: '0.00',
			resultCount: 1,
			quantityFreeRemaining: 100,
			maxCostNeeded: '0.10',
			pricePerRecord: '0.10',
		});
		expect(result.json.map((preview) => preview.PropID)).toEqual(ids);
		const hints = JSON.stringify(result.run.data.resultData.runData.PropRadar[0].hints ?? []);
		expect(hints).toContain(
			'Run total of this preview: 600 items, 600 charged records at $0.10 each. A purchase of the same items needs Max Cost of at least $60.00.',
		);
		expect(await chargeLog()).toEqual([]);
	});

	test('the free quotes of several batches travel together, not one after another (a purchase too)', async () => {
		// Each quote is held until all three have come (or a bound against a hang lets it go): one
		// after another, only one is ever held at a time.
		const holdQuotes = () => {
			let held: Array<() => void> = [];
			let most = 0;
			let bound: NodeJS.Timeout | undefined;
			sb.faults.push({
				method: 'POST',
				pathPrefix: '/v1/properties',
				query: { Purchase: '0' },
				count: 3,
				beforeForward: () =>
					new Promise<void>((forward) => {
						held.push(forward);
						most = Math.max(most, held.length);
						const release = () => {
							clearTimeout(bound);
							bound = undefined;
							const group = held;
							held = [];
							for (const go of group) go();
						};
						if (held.length === 3) release();
						else bound ??= setTimeout(release, 5_000);
					}),
			});
			return () => most;
		};
		const ids = propIds(1500, 2001);
		const mostHeld = holdQuotes();
		const preview = await run({ chargeMode: 'preview' }, itemsOf(ids));
		expect(preview.error).toBeUndefined();
		expect(preview.json.map((item) => item.PropID)).toEqual(ids);
		expect(mostHeld()).toBe(3);

		sb.requests.length = 0;
		const mostHeldBuying = holdQuotes();
		const bought = await run({ chargeMode: 'purchase', maxCost: 200 }, itemsOf(ids));
		expect(bought.error).toBeUndefined();
		expect(mostHeldBuying()).toBe(3);
		// The purchases still go one after another, each once.
		expect((await chargeLog()).map((entry) => entry.quantity)).toEqual([500, 500, 500]);
	});

	test('an ID the service does not have is that item\'s "does not exist", the others are read; found by free quotes', async () => {
		const ids = ['P000010', 'P999998', 'P000011', 'P000012', 'P999999', 'P000013'];
		const preview = await run({ chargeMode: 'preview' }, itemsOf(ids), { continueOnFail: true });
		expect(preview.error).toBeUndefined();
		expect(preview.json.map((item) => item.error ?? item.PropID)).toEqual([
			'P000010',
			'Property P999998 does not exist or belongs to another account',
			'P000011',
			'P000012',
			'Property P999999 does not exist or belongs to another account',
			'P000013',
		]);
		expect(preview.json[1]).toMatchObject({ httpCode: '404' });
		expect(String(preview.json[1].description)).toContain('nothing was bought or charged');
		// The batch's quote counts 4 of 6; each half's first half is quoted again: 6 free quotes in all.
		expect(searches().map((request) => request.query.get('Purchase'))).toEqual(
			Array.from({ length: 6 }, () => '0'),
		);

		sb.requests.length = 0;
		const bought = await run({ chargeMode: 'purchase', maxCost: 1 }, itemsOf(ids), {
			continueOnFail: true,
		});
		expect(bought.error).toBeUndefined();
		expect(bought.json.map((item) => (item.error ? 'missing' : item.PropID))).toEqual([
			'P000010',
			'missing',
			'P000011',
			'P000012',
			'missing',
			'P000013',
		]);
		// Only the IDs that exist are bought, with Limit their count.
		const [purchase] = searches().filter((request) => request.query.get('Purchase') === '1');
		expect(asked(purchase)).toEqual(['P000010', 'P000011', 'P000012', 'P000013']);
		expect(purchase.query.get('Limit')).toBe('4');
		expect((await chargeLog()).map((entry) => entry.quantity)).toEqual([4]);
	});

	test('500 items with one PropID missing: found in 10 free quotes', async () => {
		const ids = propIds(500, 7001);
		ids[123] = 'P999999';
		const result = await run({ chargeMode: 'preview' }, itemsOf(ids), { continueOnFail: true });
		expect(result.json.map((item) => item.error !== undefined)).toEqual(
			ids.map((_, index) => index === 123),
		);
		expect(searches().map((request) => request.query.get('Purchase'))).toEqual(
			Array.from({ length: 10 }, () => '0'),
		);
	});

	test('without "On Error: Continue" a missing ID fails the run as its 404 would: nothing bought', async () => {
		const ids = ['P000010', 'P999998', 'P000011'];
		const result = await run({ chargeMode: 'purchase', maxCost: 1 }, itemsOf(ids));
		expect(result.error?.message).toBe(
			'Property P999998 does not exist or belongs to another account',
		);
		expect(searches().filter((request) => request.query.get('Purchase') === '1')).toEqual([]);
		expect(await chargeLog()).toEqual([]);
	});

	test('the same PropID in two items is bought once; both items get its record', async () => {
		const ids = ['P000020', 'P000021', 'P000020'];
		const preview = await run({ chargeMode: 'preview' }, itemsOf(ids));
		expect(preview.json.map((item) => [item.maxCostNeeded, item.sameAsItem])).toEqual([
			['0.10', undefined],
			['0.10', undefined],
			['0.00', 0],
		]);
		const bought = await run({ chargeMode: 'purchase', maxCost: 0.2 }, itemsOf(ids));
		expect(bought.error).toBeUndefined();
		expect(bought.json.map((item) => item.PropID)).toEqual(ids);
		expect(bought.json[2]).toEqual(bought.json[0]);
		expect((await chargeLog()).map((entry) => entry.quantity)).toEqual([2]);
	});

	test('Fields: the request names them explicitly; PropID is asked for to pair, and left out again when not chosen', async () => {
		const ids = ['P000030', 'P000031'];
		const plain = await run({ chargeMode: 'purchase', maxCost: 1 }, itemsOf(ids));
		const single = await run({ chargeMode: 'purchase', maxCost: 1 }, [{ id: 'P000030' }]);
		// Nothing chosen: the record a single GET gives (PropID and Overview), not the search's Grid.
		expect(Object.keys(plain.json[0])).toEqual(Object.keys(single.json[0]));
		expect(searches().at(-1)?.query.get('Fields')).toBe('PropID,Overview');
		// One item is read with its own GET, which names the same Fields.
		expect(gets().map((request) => request.query.get('Fields'))).toEqual([
			'PropID,Overview',
			'PropID,Overview',
		]);

		sb.requests.length = 0;
		const chosen = await run(
			{
				chargeMode: 'purchase',
				maxCost: 1,
				fields: { fieldsets: ['Map'], exclude: ['PropID', 'PType'] },
			},
			// An input without PropID: the output has none to keep.
			[{ id: 'P000030' }, { id: 'P000031' }],
		);
		expect(chosen.error).toBeUndefined();
		expect(searches().at(-1)?.query.get('Fields')).toBe('Map,PropID,-PType');
		expect(chosen.json.map((record) => Object.keys(record).sort())).toEqual([
			['Latitude', 'Longitude', '_charge'],
			['Latitude', 'Longitude', '_charge'],
		]);
	});

	test('items whose Fields differ are read in a request per Fields choice', async () => {
		const items = [
			{ id: 'P000040', field: 'City' },
			{ id: 'P000041', field: 'State' },
			{ id: 'P000042', field: 'City' },
		];
		const result = await run(
			{ chargeMode: 'preview', fields: { include: ['PropID', '={{ $json.field }}'] } },
			items,
		);
		expect(result.error).toBeUndefined();
		expect(searches().map((request) => [request.query.get('Fields'), asked(request)])).toEqual([
			['PropID,City', ['P000040', 'P000042']],
			['PropID,State', ['P000041']],
		]);
		expect(result.json.map((item) => item.PropID)).toEqual(['P000040', 'P000041', 'P000042']);
	});

	test('Max Cost that does not cover the whole run refuses it before anything is bought, with the Max Cost it needs', async () => {
		const ids = propIds(700, 2001);
		const result = await run({ chargeMode: 'purchase', maxCost: 69.99 }, itemsOf(ids));
		expect(result.error?.message).toBe('Purchase refused: over Max Cost');
		expect(result.error?.description).toContain('Set Max Cost to at least $70.00');
		expect(searches().filter((request) => request.query.get('Purchase') === '1')).toEqual([]);
		expect(await chargeLog()).toEqual([]);
	});

	test("the credential's ceiling refuses a run it cannot cover, naming the ceiling; nothing bought", async () => {
		const ids = propIds(700, 3001);
		const result = await run({ chargeMode: 'purchase', maxCost: 100 }, itemsOf(ids), {
			spendingCeiling: 50,
		});
		expect(result.error?.message).toBe("Purchase refused: over the credential's spending ceiling");
		expect(await chargeLog()).toEqual([]);
	});

	test('a record PropRadar answers under another spelling of its PropID is paired to it; one for a PropID not asked for is output with an item, saying so', async () => {
		const ids = ['P000050', 'P000051', 'P000052'];
		sb.faults.push({
			pathPrefix: '/v1/properties',
			query: { Purchase: '1' },
			count: 1,
			rewrite: (body) => {
				const [first, second, third] = body.results as IDataObject[];
				return {
					...body,
					results: [{ ...first, PropID: ' p000050 ' }, { ...second, PropID: 'P777777' }, third],
				};
			},
		});
		const result = await run({ chargeMode: 'purchase', maxCost: 1 }, itemsOf(ids), {
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		// Every record charged is in the output: three records, with the failed item's error.
		expect(result.json.filter((item) => item._charge)).toHaveLength(3);
		expect(result.json.map((item) => item.error ?? item.PropID)).toEqual([
			' p000050 ',
			'P777777',
			"Property P000051 was not in PropRadar's answer to its purchase",
			'P000052',
		]);
		expect((result.json[1]._charge as IDataObject).notice).toContain(
			'returned this record for none of the PropIDs its request asked for',
		);
		expect(String(result.json[2].description)).toContain('may have been charged');
	});

	test('an answer that holds fewer records than asked and counts only those: the item left out is told nothing was charged for it, and the run goes on', async () => {
		const ids = ['P000060', 'P000061', 'P000062'];
		sb.faults.push({
			pathPrefix: '/v1/properties',
			query: { Purchase: '1' },
			count: 1,
			// The service's answer as if P000061 had gone between quote and purchase.
			rewrite: (body) => ({
				...body,
				results: (body.results as IDataObject[]).filter((record) => record.PropID !== 'P000061'),
				resultCount: 2,
			}),
		});
		// Gone, it is gone for the further quote that asks for it again too.
		sb.faults.push({
			pathPrefix: '/v1/properties',
			query: { Purchase: '0' },
			bodyIncludes: '["P000061"]',
			count: 1,
			rewrite: (body) => ({ ...body, resultCount: 0, totalResultCount: 0 }),
		});
		const result = await run({ chargeMode: 'purchase', maxCost: 1 }, itemsOf(ids), {
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((item) => item.error ?? item.PropID)).toEqual([
			'P000060',
			"Property P000061 was not in PropRadar's answer to its purchase",
			'P000062',
		]);
		expect(String(result.json[1].description)).toContain('nothing was charged for it');
	});

	test('with "On Error: Continue", a batch whose quote fails makes its own items error items; the other batches are read and bought', async () => {
		const ids = propIds(1050, 5001);
		// The second batch's quote (its first PropID is P005501); the quotes travel together.
		const secondQuote = (): Fault => ({
			pathPrefix: '/v1/properties',
			query: { Purchase: '0' },
			bodyIncludes: '"P005501"',
			count: 4,
			status: 503,
		});
		sb.faults.push(secondQuote());
		const preview = await run({ chargeMode: 'preview' }, itemsOf(ids), { continueOnFail: true });
		expect(preview.error).toBeUndefined();
		const failed = (json: IDataObject[]) => json.map((item) => item.error !== undefined);
		expect(failed(preview.json)).toEqual(ids.map((_, index) => index >= 500 && index < 1000));
		expect(preview.json[600].error).toBe('The PropRadar service failed');

		sb.faults.length = 0;
		sb.faults.push(secondQuote());
		const bought = await run({ chargeMode: 'purchase', maxCost: 200 }, itemsOf(ids), {
			continueOnFail: true,
		});
		expect(failed(bought.json)).toEqual(ids.map((_, index) => index >= 500 && index < 1000));
		expect(String(bought.json[600].description)).toContain('nothing was bought or charged');
		expect((await chargeLog()).map((entry) => entry.quantity)).toEqual([500, 50]);
	});

	test('a bad Property ID in one item is refused before any request, naming the field', async () => {
		const result = await run({ chargeMode: 'purchase', maxCost: 1 }, [
			{ id: 'P000010' },
			{ id: 'not an id!' },
		]);
		expect(result.error?.message).toMatch(/^Property ID: /);
		expect(sb.requests).toEqual([]);
	});
});
