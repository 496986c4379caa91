/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Money under faults: every charging operation, run through n8n-core's engine against the sandbox,
 * with faults injected at the HTTP level (the harness's proxy) on the quote and on the purchase,
 * before and after the service acted, and with free credits used up by another client between
 * quote and purchase. After every run: money spent <= Max Cost, no purchase sent twice, every
 * charge the node was told of is in the output, and the messages say truly what happened. The
 * sandbox charges prices of its own, cheaper and dearer than the table the node assumes
 * (`PRICE_SCENARIOS`): the caps hold at prices the node did not assume.
 */
import { OutboundHttp, SsrfProtectionService } from '@n8n/backend-network';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { LIST_PRICES_CENTS, type PriceKind } from '../../nodes/PropRadar/money';
import { runChain, runNode, TOKENS, type Fault, type NodeRun } from '../support/harness';
import {
	api,
	control,
	createMonitoredList,
	importInto,
	listRef,
	portlandRecords,
	propertyPurchase,
	sandboxCharges,
	sandboxImportList,
	useEngineSandbox,
} from '../support/helpers';
import { until } from '../support/until';

const sb = useEngineSandbox();
beforeEach(async () => {
	sb.faults.length = 0;
	sb.requests.length = 0;
	await fetch(`${sb.sandbox.url}/_sandbox/reset`, { method: 'POST' });
});

const chargeLog = (token: string = TOKENS.main) => sandboxCharges(sb, token);
/** The cents charged since the charge log held `before` entries. */
const spentSince = async (before: number) =>
	(await chargeLog()).log.slice(before).reduce((sum, entry) => sum + entry.cents, 0);

/**
 * Prices the sandbox charges other than the node's table (the documents give none, and the node's
 * table is only what it assumes): its caps must hold at prices it did not assume. Set for every
 * paying account after each reset, by `atPrices`.
 */
interface PriceScenario {
	name: string;
	pricesCents: Record<PriceKind, number>;
}
const CHEAPER: PriceScenario = {
	name: "cheaper than the node's table",
	pricesCents: {
		property: 6,
		propertyDetail: 13,
		person: 8,
		personRecord: 9,
		phone: 25,
		email: 17,
		importRecord: 3,
	},
};
const DEARER: PriceScenario = {
	name: "dearer than the node's table",
	pricesCents: {
		property: 23,
		propertyDetail: 55,
		person: 31,
		personRecord: 47,
		phone: 90,
		email: 70,
		importRecord: 11,
	},
};
const PRICE_SCENARIOS = [CHEAPER, DEARER];

/** Within a describe: the sandbox charges `scenario`'s prices in its tests. */
function atPrices(scenario: PriceScenario): void {
	beforeEach(async () => {
		for (const token of [TOKENS.main, TOKENS.second, TOKENS.broke]) {
			const set = await control(sb, 'PUT', '/_sandbox/prices', {
				token,
				pricesCents: scenario.pricesCents,
			});
			if (set.status !== 200)
				throw new Error(`setting the sandbox's prices: ${set.status} ${JSON.stringify(set.body)}`);
		}
	});
}

/** What the node holds per record once a quote has shown the sandbox's price: that price, or its own list price if higher. */
const heldCents = (scenario: PriceScenario, kind: PriceKind) =>
	Math.max(LIST_PRICES_CENTS[kind], scenario.pricesCents[kind]);

/** Another client of the same account buys 100 properties: the free export credits are gone. */
async function useUpCredits(): Promise<void> {
	await api(sb, 'POST', '/v1/properties?Purchase=1&Limit=100', {
		Criteria: [{ name: 'State', value: ['WA'] }],
	});
}

const cents = (amount: unknown) => Math.round(Number(amount) * 100);

function run(
	parameters: IDataObject,
	items: IDataObject[],
	options: {
		continueOnFail?: boolean;
		spendingCeiling?: number;
		retryOnFail?: boolean;
		token?: string;
	} = {},
): Promise<NodeRun> {
	return runNode(parameters, {
		credentials: {
			baseUrl: sb.url,
			accessToken: options.token ?? TOKENS.main,
			spendingCeiling: options.spendingCeiling,
		},
		items,
		continueOnFail: options.continueOnFail,
		nodeSettings: options.retryOnFail
			? { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 }
			: undefined,
	});
}

const pairedTo = (items: INodeExecutionData[], index: number) =>
	items.filter((item) =>
		(Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem]).some(
			(paired) => typeof paired === 'object' && paired?.item === index,
		),
	);

/** What the output says was charged: each purchase's `_charge.totalCost` once (a run's total grows with every purchase that costs). */
function chargedInOutput(items: INodeExecutionData[]): number {
	const seen = new Set<string>();
	let total = 0;
	for (const item of items) {
		const note = item.json._charge as { totalCost: string; runTotalCost: string } | undefined;
		if (!note) continue;
		const key = `${note.totalCost} ${note.runTotalCost}`;
		if (seen.has(key)) continue;
		seen.add(key);
		total += cents(note.totalCost);
	}
	return total;
}

/** The output items a run that failed after buying carries in its error (n8n keeps no output of a failed node). */
function carried(result: NodeRun): IDataObject[] {
	expect(result.error?.description).toContain(
		"output items of the run, every record bought among them, are in this error's data",
	);
	return (result.error?.context as IDataObject).data as IDataObject[];
}

// ---------------------------------------------------------------------------------------------
// Every charging operation that buys per input item, three items each.
interface ChargingOperation {
	name: string;
	parameters: IDataObject;
	items: IDataObject[];
	/** What identifies the item's purchase in a request (its path or its body). */
	target: (item: IDataObject) => string;
}

// Properties with eviction records (about one in five has some), so every property operation charges.
const properties = ['P000106', 'P000110', 'P000112'].map((id) => ({ id }));
const persons = ['K000106A', 'K000110A', 'K000112A'].map((key) => ({ key }));
const byProperty =
	(suffix = '') =>
	(item: IDataObject) =>
		`/v1/properties/${String(item.id)}${suffix}`;
const byPerson = (suffix: string) => (item: IDataObject) =>
	`/v1/persons/${String(item.key)}${suffix}`;

/** An operation bought item by item, one charged record an item: the item loop's purchases (Property > Get over several items is read in batches). */
const parcelsOf = { resource: 'property', operation: 'getParcels', propId: '={{ $json.id }}' };

const OPERATIONS: ChargingOperation[] = [
	// Property > Get over several items is read in batches: its matrix is "Property > Get over many items" below.
	{
		name: 'Property > Get Evictions',
		parameters: { resource: 'property', operation: 'getEvictions', propId: '={{ $json.id }}' },
		items: properties,
		target: byProperty('/evictions'),
	},
	{
		name: 'Property > Get Comps',
		parameters: {
			resource: 'property',
			operation: 'getComps',
			propId: '={{ $json.id }}',
			compsKind: 'sales',
		},
		items: properties,
		target: byProperty('/comps/sales'),
	},
	{
		name: 'Property > Get Parcels',
		parameters: { resource: 'property', operation: 'getParcels', propId: '={{ $json.id }}' },
		items: properties,
		target: byProperty('/parcels'),
	},
	{
		name: 'Property > Get Transactions',
		parameters: { resource: 'property', operation: 'getTransactions', propId: '={{ $json.id }}' },
		items: properties,
		target: byProperty('/transactions'),
	},
	{
		name: 'Property > Search',
		parameters: {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '={{ JSON.stringify([{ name: "PropID", value: [$json.id] }]) }}',
			returnAll: true,
		},
		items: properties,
		target: (item) => String(item.id),
	},
	{
		name: 'Person > Get Owners',
		parameters: { resource: 'person', operation: 'getOwners', propId: '={{ $json.id }}' },
		items: properties,
		target: byProperty('/persons'),
	},
	{
		name: 'Person > Get Records',
		parameters: {
			resource: 'person',
			operation: 'getRecords',
			personKey: '={{ $json.key }}',
			recordKind: 'relatives',
			returnAll: true,
		},
		items: persons,
		target: byPerson('/relatives'),
	},
	{
		name: 'Person > Purchase Phone',
		parameters: { resource: 'person', operation: 'purchasePhone', personKey: '={{ $json.key }}' },
		items: persons,
		target: byPerson('/Phone'),
	},
	{
		name: 'Person > Purchase Email',
		parameters: { resource: 'person', operation: 'purchaseEmail', personKey: '={{ $json.key }}' },
		items: persons,
		target: byPerson('/Email'),
	},
];

/** A fault on the second item, and what it means for the money. */
interface FaultCase {
	name: string;
	fault: Omit<Fault, 'pathPrefix' | 'count'> & { count?: number };
	/** The service acted on the purchase before the fault (it may have charged). */
	after?: boolean;
	/** What the second item's error must say: nothing charged, or maybe charged. */
	money: 'nothing' | 'maybe' | 'none';
}

const injected = { error: 'Injected fault', eventid: 'tst-flt-001' };
const FAULT_CASES: FaultCase[] = [
	{
		name: 'quote answers 500 (retried, then given up)',
		fault: { query: { Purchase: '0' }, count: 4, status: 500 },
		money: 'nothing',
	},
	{
		name: 'quote dropped (retried, then given up)',
		fault: { query: { Purchase: '0' }, count: 4, drop: true },
		money: 'nothing',
	},
	{
		name: 'quote 200 without a readable totalCost',
		fault: {
			query: { Purchase: '0' },
			status: 200,
			body: { results: [], totalCost: '-5.00', resultCount: 1 },
		},
		money: 'nothing',
	},
	{
		name: 'purchase 500 before the service acted',
		fault: { query: { Purchase: '1' }, status: 500, body: injected },
		money: 'maybe',
	},
	{
		name: 'purchase 502 before the service acted',
		fault: { query: { Purchase: '1' }, status: 502, body: '<html>Bad Gateway</html>' },
		money: 'maybe',
	},
	{
		name: 'purchase 503 with Retry-After before the service acted',
		fault: {
			query: { Purchase: '1' },
			status: 503,
			headers: { 'retry-after': '1' },
			body: injected,
		},
		money: 'maybe',
	},
	{
		name: "purchase 429 (the service's refusal) before it acted",
		fault: {
			query: { Purchase: '1' },
			status: 429,
			body: { error: 'Too Many Requests', eventid: 'tst-429-001' },
		},
		money: 'nothing',
	},
	{
		name: 'purchase connection dropped before the service acted',
		fault: { query: { Purchase: '1' }, drop: true },
		money: 'maybe',
	},
	{
		name: 'purchase 502 after the service acted',
		fault: { query: { Purchase: '1' }, statusAfterForward: true, status: 502, body: injected },
		after: true,
		money: 'maybe',
	},
	{
		name: 'purchase 500 after the service acted',
		fault: { query: { Purchase: '1' }, statusAfterForward: true, status: 500, body: injected },
		after: true,
		money: 'maybe',
	},
	{
		name: 'purchase connection dropped after the service acted',
		fault: { query: { Purchase: '1' }, dropAfterForward: true },
		after: true,
		money: 'maybe',
	},
	{
		name: 'purchase answer late, then the connection lost, after the service acted',
		fault: { query: { Purchase: '1' }, dropAfterForward: true, delayMs: 300 },
		after: true,
		money: 'maybe',
	},
	{
		name: 'free credits used up by another client between quote and purchase',
		fault: { query: { Purchase: '1' }, beforeForward: useUpCredits },
		money: 'none',
	},
];

/** The run total of the preview: what the three purchases need at full price, the Max Cost the run needs. */
async function runTotal(operation: ChargingOperation): Promise<number> {
	const preview = await run({ ...operation.parameters, chargeMode: 'preview' }, operation.items, {
		continueOnFail: true,
	});
	const needed = preview.json.reduce((sum, quote) => sum + cents(quote.maxCostNeeded), 0);
	expect(needed).toBeGreaterThan(0);
	return needed / 100;
}

const summary = { runs: 0, overCap: 0, doubleCharges: 0, chargedMissing: 0 };
/** The same figures for Property > Get over many items (also counted in `summary`). */
const batchedSummary = { runs: 0, overCap: 0, doubleCharges: 0, chargedMissing: 0 };
afterAll(() => {
	// The figures of the money issue's "Done when", printed by every run of this file.
	console.log(
		`money under faults: ${summary.runs} runs, ${summary.overCap} over a cap, ${summary.doubleCharges} double charges, ${summary.chargedMissing} charged purchases missing from the output`,
	);
	console.log(
		`of them Property > Get over many items (batched): ${batchedSummary.runs} runs, ${batchedSummary.overCap} over a cap, ${batchedSummary.doubleCharges} double charges, ${batchedSummary.chargedMissing} charged records or purchases missing from the output`,
	);
});

describe.each(PRICE_SCENARIOS)('at prices $name', (scenario) => {
	atPrices(scenario);
	describe.each(OPERATIONS)('$name in Purchase mode', (operation) => {
		test.each(FAULT_CASES)('$name', async (faultCase) => {
			const maxCost = await runTotal(operation);
			const before = (await chargeLog()).log.length;
			let drained = 0;
			// On the second item's purchase, or on its quote: after the run's quotes (one per item) and the first item's.
			const skip = faultCase.fault.query?.Purchase === '0' ? operation.items.length + 1 : 1;
			const fault: Fault = { pathPrefix: '/v1/', count: 1, skip, ...faultCase.fault };
			if (faultCase.fault.beforeForward) {
				fault.beforeForward = async () => {
					const start = (await chargeLog()).log.length;
					await useUpCredits();
					drained = (await chargeLog()).log.length - start;
				};
			}
			sb.faults.push(fault);
			const requestsBefore = sb.requests.length;
			const result = await run(
				{ ...operation.parameters, chargeMode: 'purchase', maxCost },
				operation.items,
				{ continueOnFail: true },
			);
			expect(result.error).toBeUndefined();
			const sent = sb.requests.slice(requestsBefore);
			const entries = (await chargeLog()).log.slice(before);
			const ours = faultCase.fault.beforeForward
				? entries.filter(
						(_, index) => index !== entries.findIndex((entry) => entry.quantity === 100),
					)
				: entries;
			if (faultCase.fault.beforeForward) expect(drained).toBe(1);
			const spent = ours.reduce((sum, entry) => sum + entry.cents, 0);
			summary.runs++;

			// Never past the cap.
			if (spent > cents(maxCost)) summary.overCap++;
			expect(spent).toBeLessThanOrEqual(cents(maxCost));

			// No purchase sent twice, none charged twice.
			const purchases = sent.filter((request) => request.query.get('Purchase') === '1');
			const targets = purchases.map((request) =>
				operation.items.findIndex((item) =>
					`${request.path} ${request.body}`.includes(operation.target(item)),
				),
			);
			expect(targets.every((index) => index >= 0)).toBe(true);
			if (new Set(targets).size !== targets.length) summary.doubleCharges++;
			expect(new Set(targets).size).toBe(targets.length);
			expect(ours.length).toBeLessThanOrEqual(purchases.length);

			// Every charge the node was told of is in the output; only a purchase answered by the fault can be missing.
			const inOutput = chargedInOutput(result.items);
			if (!faultCase.after && inOutput !== spent) summary.chargedMissing++;
			if (faultCase.after) expect(inOutput).toBeLessThanOrEqual(spent);
			else expect(inOutput).toBe(spent);

			// The messages are true.
			const second = pairedTo(result.items, 1);
			const third = pairedTo(result.items, 2);
			if (faultCase.money === 'none') {
				expect(
					second.every((item) => !item.json.error || /over Max Cost/.test(String(item.json.error))),
				).toBe(true);
				return;
			}
			expect(second).toHaveLength(1);
			const said = `${String(second[0].json.error)} ${String(second[0].json.description)}`;
			if (faultCase.money === 'nothing') {
				expect(said).toMatch(/nothing was (bought or )?charged/i);
				expect(said).not.toMatch(/may have been charged/);
			} else {
				expect(said).toMatch(/may have been charged/);
				expect(said).not.toMatch(
					/nothing was charged|try again later|retry the request immediately/i,
				);
				// The run buys nothing more: the third item is refused with the reason, and no purchase is sent for it.
				expect(third).toHaveLength(1);
				expect(String(third[0].json.error)).toBe(
					'Purchase refused: an earlier purchase of this run may have been charged',
				);
				expect(targets).not.toContain(2);
			}
		});
	});
});

// ---------------------------------------------------------------------------------------------
// Property > Get over many items: 1,050 items read in three purchases (500, 500 and 50 properties),
// the fault on the second; the same faults as above, and answers that hold fewer records than asked.
describe('Property > Get over many items in Purchase mode', () => {
	const ids = Array.from(
		{ length: 1050 },
		(_, index) => `P${String(20001 + index).padStart(6, '0')}`,
	);
	const items = ids.map((id) => ({ id }));
	const parameters = { resource: 'property', operation: 'get', propId: '={{ $json.id }}' };
	const asked = (request: { body: string }) =>
		(JSON.parse(request.body) as { Criteria: Array<{ value: string[] }> }).Criteria[0].value;
	const second = (output: IDataObject[]) => output.slice(500, 1000);
	const third = (output: IDataObject[]) => output.slice(1000);
	const PARTIAL_CASES: FaultCase[] = [
		{
			name: 'purchase answer holds 10 records fewer than it counts and charged',
			fault: {
				query: { Purchase: '1' },
				rewrite: (body) => ({ ...body, results: (body.results as unknown[]).slice(10) }),
			},
			after: true,
			money: 'maybe',
		},
	];

	describe.each(PRICE_SCENARIOS)('at prices $name', (scenario) => {
		atPrices(scenario);
		test.each([...FAULT_CASES, ...PARTIAL_CASES])('$name', async (faultCase) => {
			const preview = await run({ ...parameters, chargeMode: 'preview' }, items);
			expect(preview.error).toBeUndefined();
			const maxCost =
				preview.json.reduce((sum, quote) => sum + cents(quote.maxCostNeeded), 0) / 100;
			const before = (await chargeLog()).log.length;
			let drained = 0;
			// The second batch's quote or its purchase: the requests asking for its first PropID (the
			// quotes travel together, so which comes second is not fixed).
			const fault: Fault = {
				pathPrefix: '/v1/properties',
				count: 1,
				bodyIncludes: `"${ids[500]}"`,
				...faultCase.fault,
			};
			if (faultCase.fault.beforeForward) {
				fault.beforeForward = async () => {
					const start = (await chargeLog()).log.length;
					await useUpCredits();
					drained = (await chargeLog()).log.length - start;
				};
			}
			sb.faults.push(fault);
			const requestsBefore = sb.requests.length;
			const result = await run({ ...parameters, chargeMode: 'purchase', maxCost }, items, {
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			expect(result.json).toHaveLength(1050);
			const sent = sb.requests.slice(requestsBefore);
			const entries = (await chargeLog()).log.slice(before);
			const ours = faultCase.fault.beforeForward
				? entries.filter(
						(_, index) => index !== entries.findIndex((entry) => entry.quantity === 100),
					)
				: entries;
			if (faultCase.fault.beforeForward) expect(drained).toBe(1);
			const spent = ours.reduce((sum, entry) => sum + entry.cents, 0);
			summary.runs++;
			batchedSummary.runs++;

			// Never past the cap.
			if (spent > cents(maxCost)) {
				summary.overCap++;
				batchedSummary.overCap++;
			}
			expect(spent).toBeLessThanOrEqual(cents(maxCost));

			// No property asked for in two purchases, no purchase charged twice.
			const purchases = sent.filter((request) => request.query.get('Purchase') === '1');
			expect(purchases.every((request) => request.path === '/v1/properties')).toBe(true);
			const bought = purchases.flatMap(asked);
			if (new Set(bought).size !== bought.length) {
				summary.doubleCharges++;
				batchedSummary.doubleCharges++;
			}
			expect(new Set(bought).size).toBe(bought.length);
			expect(ours.length).toBeLessThanOrEqual(purchases.length);

			// Every charge the node was told of is in the output, and every record charged; only a
			// purchase answered by the fault can be missing.
			const inOutput = chargedInOutput(result.items);
			const records = result.json.filter((item) => item._charge !== undefined).length;
			const chargedRecords = ours.reduce((sum, entry) => sum + entry.quantity, 0);
			if (!faultCase.after && (inOutput !== spent || records !== chargedRecords)) {
				summary.chargedMissing++;
				batchedSummary.chargedMissing++;
			}
			if (faultCase.after) {
				expect(inOutput).toBeLessThanOrEqual(spent);
				expect(records).toBeLessThanOrEqual(chargedRecords);
			} else {
				expect(inOutput).toBe(spent);
				expect(records).toBe(chargedRecords);
			}
			// Each item its own record, in input order.
			expect(
				result.json.every((item, index) => item.error !== undefined || item.PropID === ids[index]),
			).toBe(true);

			// The messages are true.
			const said = (item: IDataObject) => `${String(item.error)} ${String(item.description)}`;
			if (faultCase.money === 'none') {
				expect(result.json.every((item) => !item.error || /over Max Cost/.test(said(item)))).toBe(
					true,
				);
				return;
			}
			const failed = faultCase.fault.rewrite
				? second(result.json).slice(0, 10)
				: second(result.json);
			expect(failed.every((item) => item.error !== undefined)).toBe(true);
			if (faultCase.money === 'nothing') {
				expect(failed.every((item) => /nothing was (bought or )?charged/i.test(said(item)))).toBe(
					true,
				);
				expect(failed.some((item) => /may have been charged/.test(said(item)))).toBe(false);
			} else {
				expect(failed.every((item) => /may have been charged/.test(said(item)))).toBe(true);
				expect(
					failed.some((item) =>
						/nothing was charged|try again later|retry the request immediately/i.test(said(item)),
					),
				).toBe(false);
				// The run buys nothing more: the third batch is refused with the reason, and not sent.
				expect(
					third(result.json).every(
						(item) =>
							item.error ===
							'Purchase refused: an earlier purchase of this run may have been charged',
					),
				).toBe(true);
				expect(bought.some((id) => ids.indexOf(id) >= 1000)).toBe(false);
			}
		});
	});

	test('Retry On Fail is refused before anything is sent', async () => {
		const result = await run(
			{ ...parameters, chargeMode: 'purchase', maxCost: 200 },
			items.slice(0, 600),
			{ retryOnFail: true },
		);
		expect(result.error?.message).toBe('Purchase refused: "Retry On Fail" is on for this node');
		expect(sb.requests.filter((request) => request.path.startsWith('/v1/properties'))).toEqual([]);
	});

	test('without "On Error: Continue": a batch that failed after charging ends the run; the batches before it are in its error\'s data, nothing more is bought', async () => {
		sb.faults.push({
			pathPrefix: '/v1/properties',
			query: { Purchase: '1' },
			skip: 1,
			count: 1,
			statusAfterForward: true,
			status: 500,
			body: injected,
		});
		const before = (await chargeLog()).log.length;
		const result = await run({ ...parameters, chargeMode: 'purchase', maxCost: 200 }, items);
		expect(result.error?.message).toBe(
			'PropRadar answered 500 to a purchase: it may have been charged',
		);
		const output = carried(result);
		expect(
			output.slice(0, 500).every((item, index) => item.PropID === ids[index] && item._charge),
		).toBe(true);
		expect(output).toHaveLength(500);
		const entries = (await chargeLog()).log.slice(before);
		expect(entries.map((entry) => entry.quantity)).toEqual([500, 500]);
		expect(
			sb.requests
				.filter((request) => request.query.get('Purchase') === '1')
				.map(asked)
				.flat(),
		).toHaveLength(1000);
	});
});

describe('Import Record > Import in Purchase mode', () => {
	const importList = () => sandboxImportList(sb, 'money import');
	const rows = portlandRecords(50, 'Elm St', 100);

	describe.each(PRICE_SCENARIOS)('at prices $name', (scenario) => {
		atPrices(scenario);
		test.each([
			{
				name: 'a batch answered 502 after the service imported it',
				fault: { statusAfterForward: true, status: 502 },
				after: true,
			},
			{
				name: 'a batch whose connection dropped after the service imported it',
				fault: { dropAfterForward: true },
				after: true,
			},
			{
				name: 'a batch refused by the service (400 with its error object)',
				fault: { status: 400, body: { error: 'Unexpected payload field', eventid: 'tst-400-001' } },
				after: false,
			},
		])(
			'$name: the batches before it are output and charged once, the message is true, nothing more is sent',
			async ({ fault, after }) => {
				await useUpCredits();
				const listId = await importList();
				const before = (await chargeLog()).log.length;
				sb.faults.push({
					pathPrefix: `/v1/lists/${listId}/import/items`,
					query: { Purchase: '1' },
					skip: 2,
					count: 1,
					...fault,
				});
				// Every record at the price the node holds it at, once the quote has shown the sandbox's.
				const maxCostCents = rows.length * heldCents(scenario, 'importRecord');
				const result = await run(
					importInto(listId, {
						chargeMode: 'purchase',
						maxCost: maxCostCents / 100,
						importOptions: { batchSize: 10 },
					}),
					rows,
				);
				// Without "On Error: Continue" the run fails, and its error carries the 50 output items, the 20 imported among them.
				const output = carried(result);
				expect(output).toHaveLength(50);
				expect(output.slice(0, 20).every((item) => item.ListImportItemID && item._charge)).toBe(
					true,
				);
				const failed = output.slice(20, 30);
				expect(failed.every((item) => item.error)).toBe(true);
				expect(String(failed[0].description)).toMatch(
					after ? /may have been imported and charged/ : /not imported and not charged/,
				);
				expect(
					output
						.slice(30)
						.every((item) => /not sent and not charged/.test(String(item.description))),
				).toBe(true);
				const entries = (await chargeLog()).log.slice(before);
				expect(entries).toHaveLength(after ? 3 : 2);
				expect(entries.reduce((sum, entry) => sum + entry.cents, 0)).toBeLessThanOrEqual(
					maxCostCents,
				);
				expect(entries.map((entry) => entry.cents)).toEqual(
					entries.map(() => 10 * scenario.pricesCents.importRecord),
				);
				expect(chargedInOutput(output.map((json) => ({ json })))).toBe(
					entries.slice(0, 2).reduce((sum, entry) => sum + entry.cents, 0),
				);
				expect(
					sb
						.sent(`/v1/lists/${listId}/import/items`)
						.filter((r) => r.query.get('Purchase') === '1'),
				).toHaveLength(3);
				expect(result.error?.description).toContain(
					'The import stopped after 20 records were imported',
				);
			},
		);
	});

	test('Max Cost below all records at full price: refused before anything is sent, even with free credits', async () => {
		const listId = await importList();
		const result = await run(importInto(listId, { chargeMode: 'purchase', maxCost: 0 }), rows);
		expect(result.error?.message).toBe('Purchase refused: over Max Cost');
		expect(result.error?.description).toContain('Set Max Cost to at least $2.50');
		expect(
			sb.sent(`/v1/lists/${listId}/import/items`).filter((r) => r.query.get('Purchase') === '1'),
		).toHaveLength(0);
	});
});

describe('a purchase whose connection cannot be made (the service unreachable after the quote)', () => {
	let acceptLater: NodeJS.Timeout | undefined;
	afterEach(async () => {
		clearTimeout(acceptLater);
		await sb.acceptConnections();
	});

	test('item by item: was not sent, nothing charged, its hold released, and the run goes on buying', async () => {
		// The first item's quote is answered; then new connections are refused, so its purchase (each
		// purchase opens a connection of its own) cannot connect. They are taken again when the second
		// item's quote arrives on a kept connection, or, if its connection is refused too, 600 ms
		// later, while the node repeats that quote.
		// The run's quotes (one per item) come first: the fault is on the first item's own quote.
		sb.faults.push(
			{
				pathPrefix: '/v1/properties/',
				query: { Purchase: '0' },
				skip: 2,
				count: 1,
				beforeForward: async () => {
					sb.refuseConnections();
					acceptLater = setTimeout(() => void sb.acceptConnections(), 600);
				},
			},
			{
				pathPrefix: '/v1/properties/',
				query: { Purchase: '0' },
				count: 1,
				beforeForward: () => sb.acceptConnections(),
			},
		);
		const before = (await chargeLog()).log.length;
		const result = await run(
			{
				...parcelsOf,
				chargeMode: 'purchase',
				maxCost: 0.5,
			},
			properties.slice(0, 2),
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const [first] = pairedTo(result.items, 0);
		expect(first.json.error).toBe(
			`Could not reach PropRadar at ${sb.url}: the purchase was not sent`,
		);
		expect(String(first.json.description)).toMatch(
			/^The connection could not be made \(ECONNREFUSED\), so the purchase never left n8n: nothing was charged\./,
		);
		// Max Cost fits two purchases at full price: the first one's hold was given back, so the second is bought.
		const [second] = pairedTo(result.items, 1);
		expect(second.json.PropID).toBe(properties[1].id);
		expect(second.json._charge).toMatchObject({ totalCost: expect.any(String) });
		const entries = (await chargeLog()).log.slice(before);
		expect(entries).toHaveLength(1);
		expect(
			sb.requests
				.filter((request) => request.query.get('Purchase') === '1')
				.map((request) => request.path),
		).toEqual([`/v1/properties/${properties[1].id}/parcels`]);
	});

	test('Import: the batch was not sent and not charged, the batches before it are output', async () => {
		const listId = await sandboxImportList(sb, 'unreachable import');
		sb.faults.push({
			pathPrefix: `/v1/lists/${listId}/import/items`,
			query: { Purchase: '1' },
			count: 1,
			beforeForward: async () => sb.refuseConnections(),
		});
		const before = (await chargeLog()).log.length;
		const result = await run(
			importInto(listId, { chargeMode: 'purchase', maxCost: 2, importOptions: { batchSize: 10 } }),
			portlandRecords(30, 'Elm St', 200),
		);
		const output = carried(result);
		expect(output.slice(0, 10).every((item) => item.ListImportItemID && item._charge)).toBe(true);
		const failed = output.slice(10, 20);
		expect(
			failed.every(
				(item) =>
					item.error === `Could not reach PropRadar at ${sb.url}: the purchase was not sent`,
			),
		).toBe(true);
		expect(String(failed[0].description)).toMatch(
			/nothing was charged\. .*The 10 records of this batch were not imported and not charged\. 10 records were imported and charged before this batch/,
		);
		expect(
			output.slice(20).every((item) => /not sent and not charged/.test(String(item.description))),
		).toBe(true);
		expect((await chargeLog()).log.slice(before)).toHaveLength(1);
	});
});

describe("a purchase whose address n8n's SSRF protection blocks after its quote went through", () => {
	afterEach(() => jest.restoreAllMocks());

	// n8n's request helper checks the address of each request (`validateUrl`), then again in the
	// lookup of its connection. Here the Base URL's name resolves to the sandbox, except for one lookup after the
	// first item's quote: the purchase's own check (1), or the lookup of its connection (2), as when
	// a DNS answer changes.
	test.each([
		["by n8n's check of the request", 1],
		['only when its connection is made', 2],
	])(
		'blocked %s: was not sent, nothing charged, its hold released, and the run goes on buying',
		async (_when, blockedLookup) => {
			let lookupsSinceQuote: number | undefined;
			const resolver = {
				lookup: async () => {
					if (lookupsSinceQuote !== undefined) lookupsSinceQuote++;
					const blocked = lookupsSinceQuote === blockedLookup;
					if (blocked) lookupsSinceQuote = undefined;
					return [{ address: blocked ? '169.254.169.254' : '127.0.0.1', family: 4 }];
				},
			};
			const quiet = {
				scoped: () => quiet,
				warn: () => undefined,
				debug: () => undefined,
				info: () => undefined,
				error: () => undefined,
			};
			const ssrf = new SsrfProtectionService(
				{
					enabled: true,
					blockedIpRanges: ['169.254.0.0/16'],
					allowedIpRanges: [],
					allowedHostnames: [],
					blockedHostnames: [],
				} as never,
				resolver as never,
				quiet as never,
			);
			// n8n's network layer given an SSRF protection that is on (`resolveSsrf` picks it for each request).
			jest
				.spyOn(OutboundHttp.prototype as never as { resolveSsrf: () => unknown }, 'resolveSsrf')
				.mockReturnValue(ssrf);
			// After the run's quotes (one per item), on the first item's own quote.
			sb.faults.push({
				pathPrefix: '/v1/properties/',
				query: { Purchase: '0' },
				skip: 2,
				count: 1,
				beforeForward: async () => {
					lookupsSinceQuote = 0;
				},
			});
			const before = (await chargeLog()).log.length;
			const baseUrl = sb.url.replace('127.0.0.1', 'localhost');
			const result = await runNode(
				{
					...parcelsOf,
					chargeMode: 'purchase',
					maxCost: 0.5,
				},
				{
					credentials: { baseUrl, accessToken: TOKENS.main },
					items: properties.slice(0, 2),
					continueOnFail: true,
				},
			);
			expect(result.error).toBeUndefined();
			const [first] = pairedTo(result.items, 0);
			expect(first.json.error).toBe(`This n8n's SSRF protection blocks PropRadar at ${baseUrl}`);
			expect(String(first.json.description)).toMatch(
				/restricted IP address\. Nothing was sent and nothing charged\./,
			);
			expect(JSON.stringify(result.json)).not.toMatch(/may have been charged/);
			// Max Cost fits two purchases at full price: the first one's hold was given back, so the second is bought.
			const [second] = pairedTo(result.items, 1);
			expect(second.json.PropID).toBe(properties[1].id);
			expect((await chargeLog()).log.slice(before)).toHaveLength(1);
			expect(
				sb.requests
					.filter((request) => request.query.get('Purchase') === '1')
					.map((request) => request.path),
			).toEqual([`/v1/properties/${properties[1].id}/parcels`]);
		},
	);
});

describe.each(PRICE_SCENARIOS)('Return All purchases at prices $name', (scenario) => {
	atPrices(scenario);
	const oregon = {
		resource: 'property',
		operation: 'search',
		criteriaMode: 'json',
		criteriaJson: '[{"name":"State","value":["OR"]},{"name":"Pool","value":[1]}]',
		returnAll: true,
		fields: { include: ['PropID'] },
	};

	test('the preview estimates what the purchase really costs, and the Max Cost it needs', async () => {
		const [preview] = (await run({ ...oregon, chargeMode: 'preview' }, [{}])).json;
		const wanted = Number(preview.totalResultCount);
		expect(wanted).toBeGreaterThan(500);
		// Past the free credits the quote shows the sandbox's price: every record is held at it, or at the node's own if higher.
		expect(preview.maxCostNeeded).toBe(
			((wanted * heldCents(scenario, 'property')) / 100).toFixed(2),
		);
		expect(preview.totalCost).toBe(
			(((wanted - 100) * scenario.pricesCents.property) / 100).toFixed(2),
		);
		const before = (await chargeLog()).log.length;
		const bought = await run(
			{ ...oregon, chargeMode: 'purchase', maxCost: Number(preview.maxCostNeeded) },
			[{}],
		);
		expect(bought.error).toBeUndefined();
		expect(bought.json).toHaveLength(wanted);
		const spent = await spentSince(before);
		expect((spent / 100).toFixed(2)).toBe(preview.totalCost);
		expect(bought.json.at(-1)!._charge).toMatchObject({ runTotalCost: preview.totalCost });
	});

	test('over the cap: refused before the first page, nothing bought, nothing thrown away', async () => {
		const [preview] = (await run({ ...oregon, chargeMode: 'preview' }, [{}])).json;
		const before = (await chargeLog()).log.length;
		const result = await run(
			{ ...oregon, chargeMode: 'purchase', maxCost: Number(preview.maxCostNeeded) - 0.01 },
			[{}],
		);
		expect(result.error?.message).toBe('Purchase refused: over Max Cost');
		expect(result.error?.description).toContain(
			`All ${String(preview.totalResultCount)} records need up to $${String(preview.maxCostNeeded)}`,
		);
		expect(result.error?.description).toContain('Nothing was bought');
		expect((await chargeLog()).log.slice(before)).toHaveLength(0);
	});

	test('a later page that fails after the service acted: the run fails, its error carries the pages bought, and nothing more is bought', async () => {
		const [preview] = (await run({ ...oregon, chargeMode: 'preview' }, [{}])).json;
		sb.faults.push({
			pathPrefix: '/v1/properties',
			query: { Purchase: '1' },
			skip: 1,
			count: 1,
			dropAfterForward: true,
		});
		const before = (await chargeLog()).log.length;
		const result = await run(
			{ ...oregon, chargeMode: 'purchase', maxCost: 2 * Number(preview.maxCostNeeded) },
			[{}, {}],
		);
		// Without "On Error: Continue" the run fails at the first item, and its error carries the 500 records it bought.
		expect(result.error?.message).toBe('Purchase stopped after 500 records');
		expect(result.error?.description).toMatch(
			/may have been charged.*500 records were bought; \d+ of the \d+ wanted were not bought\..*The run stopped at the item at index 0 after buying 500 records.*The 500 output items of the run, every record bought among them, are in this error's data/s,
		);
		const first = (result.error?.context as IDataObject).data as IDataObject[];
		expect(first).toHaveLength(500);
		expect(String((first[0]._charge as IDataObject).notice)).toMatch(
			/may have been charged.*500 records were bought; \d+ of the \d+ wanted were not bought/s,
		);
		const entries = (await chargeLog()).log.slice(before);
		expect(entries).toHaveLength(2);
		expect(Number(preview.totalResultCount)).toBeGreaterThan(1000);
	});

	test('with "Continue (using error output)", a stopped Return All gives the pages bought on the main output and the stop on the error output', async () => {
		const [preview] = (await run({ ...oregon, chargeMode: 'preview' }, [{}])).json;
		// The quote of the second page fails: nothing is in doubt, the first page was bought.
		sb.faults.push({
			pathPrefix: '/v1/properties',
			query: { Purchase: '0', Start: '500' },
			count: 4,
			status: 500,
		});
		const before = (await chargeLog()).log.length;
		const result = await runNode(
			{ ...oregon, chargeMode: 'purchase', maxCost: Number(preview.maxCostNeeded) },
			{
				credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
				items: [{}],
				nodeSettings: { onError: 'continueErrorOutput' },
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(500);
		expect(result.json.every((record) => typeof record.PropID === 'string')).toBe(true);
		expect(String((result.json[0]._charge as IDataObject).notice)).toMatch(
			/^Stopped after 500 records: the quote of the next page failed .*so nothing more was bought\. 500 records were bought; \d+ of the \d+ wanted were not bought\.$/s,
		);
		expect(result.errorOutput).toHaveLength(1);
		expect(result.errorOutput[0].json.error).toBe('Purchase stopped after 500 records');
		const entries = (await chargeLog()).log.slice(before);
		expect(entries).toHaveLength(1);
		expect(chargedInOutput(result.items)).toBe(entries[0].cents);
		// The stop itself charged nothing; the run's total is the first page's.
		expect((result.errorOutput[0].json.details as IDataObject)._charge).toEqual({
			totalCost: '0.00',
			resultCount: 0,
			runTotalCost: (result.json[0]._charge as IDataObject).runTotalCost,
		});
	});

	test('with "Continue (using error output)", a later page whose answer is lost: the stop on the error output says its charge is unknown', async () => {
		const [preview] = (await run({ ...oregon, chargeMode: 'preview' }, [{}])).json;
		sb.faults.push({
			pathPrefix: '/v1/properties',
			query: { Purchase: '1' },
			skip: 1,
			count: 1,
			dropAfterForward: true,
		});
		const result = await runNode(
			{ ...oregon, chargeMode: 'purchase', maxCost: Number(preview.maxCostNeeded) },
			{
				credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
				items: [{}],
				nodeSettings: { onError: 'continueErrorOutput' },
			},
		);
		expect(result.json).toHaveLength(500);
		expect(result.errorOutput[0].json.error).toBe('Purchase stopped after 500 records');
		expect((result.errorOutput[0].json.details as IDataObject)._charge).toMatchObject({
			totalCost: 'unknown',
			resultCount: 0,
			notice: expect.stringContaining('may have been charged'),
		});
	});
});

describe("the node's own guards", () => {
	test("Retry On Fail on: Purchase is refused before anything is sent, and n8n's retries send nothing either", async () => {
		const before = sb.requests.length;
		const result = await run(
			{
				resource: 'property',
				operation: 'get',
				propId: 'P000301',
				chargeMode: 'purchase',
				maxCost: 5,
			},
			[{}],
			{ retryOnFail: true },
		);
		expect(result.error?.message).toBe('Purchase refused: "Retry On Fail" is on for this node');
		expect(result.error?.description).toContain('Nothing was sent and nothing was charged');
		expect(sb.requests.length).toBe(before);
		const preview = await run(
			{ resource: 'property', operation: 'get', propId: 'P000301', chargeMode: 'preview' },
			[{}],
			{ retryOnFail: true },
		);
		expect(preview.error).toBeUndefined();
	});

	test('without "On Error: Continue", a failure after purchases fails the run, and its error carries every record bought', async () => {
		// The third item's own quote fails (its quote in the run's quotes went through).
		sb.faults.push({
			pathPrefix: '/v1/properties/P000403',
			query: { Purchase: '0' },
			skip: 1,
			count: 1,
			status: 404,
			body: { error: 'Resource does not exist for given id', eventid: 'tst-404-001' },
		});
		const items = ['P000401', 'P000402', 'P000403', 'P000404'].map((id) => ({ id }));
		const before = (await chargeLog()).log.length;
		const result = await run(
			{
				...parcelsOf,
				chargeMode: 'purchase',
				maxCost: 5,
			},
			items,
		);
		expect(result.error?.httpCode).toBe('404');
		expect(result.items).toEqual([]);
		// A parcel may come in several pieces: each piece is a record bought.
		const kept = (result.error?.context as IDataObject).data as IDataObject[];
		const pieces = kept.reduce((sum, record) => sum + Number(record.pieceCount), 0);
		expect(result.error?.description).toContain(
			`The run stopped at the item at index 2 after buying ${pieces} records`,
		);
		expect(result.error?.description).toContain("are in this error's data");
		expect(result.error?.description).toContain('"Continue (using error output)"');
		expect(kept.map((record) => record.PropID)).toEqual(['P000401', 'P000402']);
		expect(kept.every((record) => record._charge)).toBe(true);
		expect((await chargeLog()).log.slice(before).map((entry) => entry.what)).toEqual([
			'parcels of P000401',
			'parcels of P000402',
		]);
		expect(
			sb.sent('/v1/properties/P000404/parcels').filter((r) => r.query.get('Purchase') === '1'),
		).toHaveLength(0);
	});

	test('without "On Error: Continue" and nothing bought yet, a failure is the node\'s error as usual', async () => {
		const result = await run(
			{
				resource: 'property',
				operation: 'get',
				propId: 'P999999',
				chargeMode: 'purchase',
				maxCost: 5,
			},
			[{}],
		);
		expect(result.error?.httpCode).toBe('404');
	});

	test.each([
		['a quote without totalCost', { results: [], resultCount: 1 }],
		['a quote with a negative totalCost', { results: [], totalCost: '-5.00', resultCount: 1 }],
		['an HTML page', '<html>ok</html>'],
	])('%s refuses the purchase: nothing bought', async (_name, body) => {
		sb.faults.push({
			pathPrefix: '/v1/properties/P000501',
			query: { Purchase: '0' },
			count: 1,
			status: 200,
			body,
		});
		const result = await run(
			{
				resource: 'property',
				operation: 'get',
				propId: 'P000501',
				chargeMode: 'purchase',
				maxCost: 0,
			},
			[{}],
		);
		expect(result.error?.message).toBe("PropRadar's quote could not be read");
		expect(result.error?.description).toContain('nothing was charged');
		expect(
			sb.sent('/v1/properties/P000501').filter((r) => r.query.get('Purchase') === '1'),
		).toHaveLength(0);
	});

	test.each([['abc'], [Number.NaN], [0.004], [-1]])(
		'a spending ceiling of %p is an error naming the field',
		async (ceiling) => {
			const result = await run(
				{
					resource: 'property',
					operation: 'get',
					propId: 'P000502',
					chargeMode: 'purchase',
					maxCost: 5,
				},
				[{}],
				{ spendingCeiling: ceiling as number },
			);
			expect(result.error?.message).toContain(
				'Spending Ceiling per Execution of the PropRadar credential: must be an amount in USD',
			);
			expect(sb.sent('/v1/properties/P000502')).toHaveLength(0);
		},
	);

	test.each([['abc'], [-1], [0.004]])(
		'a Max Cost of %p is an error naming the field',
		async (maxCost) => {
			const result = await run(
				{
					resource: 'property',
					operation: 'get',
					propId: 'P000503',
					chargeMode: 'purchase',
					maxCost,
				},
				[{}],
			);
			expect(result.error?.message).toContain('Max Cost: must be an amount in USD');
			expect(sb.sent('/v1/properties/P000503')).toHaveLength(0);
		},
	);

	test.each([
		['a Max Cost of "abc"', { maxCost: 'abc' }, {}, 'Max Cost: must be an amount in USD'],
		[
			'a spending ceiling of "abc"',
			{ maxCost: 5 },
			{ spendingCeiling: 'abc' as unknown as number },
			'Spending Ceiling per Execution of the PropRadar credential: must be an amount in USD',
		],
		[
			'Retry On Fail',
			{ maxCost: 5 },
			{ retryOnFail: true },
			'Purchase refused: "Retry On Fail" is on for this node',
		],
	])(
		'Import with %s is refused before any request is sent, the list check too',
		async (_, parameters, options, message) => {
			const listId = await sandboxImportList(sb, 'refused import');
			const result = await run(
				importInto(listId, { chargeMode: 'purchase', ...parameters }),
				[{ Address: '1 Elm St', City: 'Portland', State: 'OR' }],
				options,
			);
			expect(result.error?.message).toContain(message);
			expect(sb.sent(`/v1/lists/${listId}`)).toHaveLength(0);
		},
	);

	test('a Max Cost that differs between items is refused before anything is sent: it is one value for the run', async () => {
		const result = await run(
			{
				resource: 'property',
				operation: 'get',
				propId: '={{ $json.id }}',
				chargeMode: 'purchase',
				maxCost: '={{ $json.budget }}',
			},
			[
				{ id: 'P000504', budget: 5 },
				{ id: 'P000505', budget: 50 },
			],
			{ continueOnFail: true },
		);
		expect(result.json).toHaveLength(2);
		expect(
			result.json.every((item) =>
				String(item.error).startsWith('Max Cost: one value for the whole run'),
			),
		).toBe(true);
		expect(sb.sent('/v1/properties/')).toHaveLength(0);
	});

	test('a run that does not fit Max Cost at full price is refused whole before anything is bought, even with free credits', async () => {
		const items = ['P000506', 'P000507', 'P000508'].map((id) => ({ id }));
		const parameters = { resource: 'property', operation: 'get', propId: '={{ $json.id }}' };
		const preview = await run({ ...parameters, chargeMode: 'preview' }, items);
		const hints = preview.run.data.resultData.runData.PropRadar[0].hints ?? [];
		expect(hints.map((hint) => hint.message).join(' ')).toContain(
			'A purchase of the same items needs Max Cost of at least $0.30',
		);
		const before = (await chargeLog()).log.length;
		const result = await run({ ...parameters, chargeMode: 'purchase', maxCost: 0.29 }, items);
		expect(result.error?.message).toBe('Purchase refused: over Max Cost');
		expect(result.error?.description).toContain('This run needs up to $0.30 for its 3 items');
		expect(result.error?.description).toContain('Set Max Cost to at least $0.30');
		expect(sb.requests.filter((request) => request.query.get('Purchase') === '1')).toHaveLength(0);
		expect((await chargeLog()).log.slice(before)).toHaveLength(0);
		const fits = await run({ ...parameters, chargeMode: 'purchase', maxCost: 0.3 }, items);
		expect(fits.json.map((item) => item.PropID)).toEqual(['P000506', 'P000507', 'P000508']);
	});
});

describe.each(PRICE_SCENARIOS)('at prices $name', (scenario) => {
	atPrices(scenario);

	test('two runs at once, each with a cap of one purchase at full price: neither passes its cap', async () => {
		await useUpCredits();
		const before = (await chargeLog()).log.length;
		const capCents = 100 * heldCents(scenario, 'property');
		const parameters = {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["CA"]}]',
			returnAll: false,
			limit: 100,
			chargeMode: 'purchase',
			maxCost: capCents / 100,
		};
		const [a, b] = await Promise.all([
			run(parameters, [{}]),
			run(parameters, [{}], { continueOnFail: true }),
		]);
		for (const result of [a, b]) {
			expect(result.json.filter((item) => item._charge)).toHaveLength(100);
			expect(chargedInOutput(result.items)).toBeLessThanOrEqual(capCents);
		}
		expect(await spentSince(before)).toBe(2 * 100 * scenario.pricesCents.property);
	});

	test("two PropRadar nodes in one execution share the credential's ceiling; the next execution has it whole again", async () => {
		await useUpCredits();
		const before = (await chargeLog()).log.length;
		// Each node's Max Cost allows its purchase; the ceiling (one and a half purchases) only one of the two.
		const ceilingCents = Math.round(heldCents(scenario, 'property') * 1.5);
		const ceiling = ceilingCents / 100;
		const [first, second] = await runChain(
			[propertyPurchase('P000701'), propertyPurchase('P000702')],
			{
				credentials: { baseUrl: sb.url, accessToken: TOKENS.main, spendingCeiling: ceiling },
			},
		);
		expect(first.error).toBeUndefined();
		expect(first.json[0].PropID).toBe('P000701');
		expect(second.error?.message).toBe("Purchase refused: over the credential's spending ceiling");
		expect(second.error?.description).toContain(
			`Spending Ceiling per Execution has $${((ceilingCents - scenario.pricesCents.property) / 100).toFixed(2)} of $${ceiling.toFixed(2)} left`,
		);
		expect((await chargeLog()).log.slice(before).map((entry) => [entry.what, entry.cents])).toEqual(
			[['property P000701', scenario.pricesCents.property]],
		);
		const next = await run(propertyPurchase('P000702'), [{}], { spendingCeiling: ceiling });
		expect(next.error).toBeUndefined();
	});
});

describe('automations that buy', () => {
	const monitoredList = () => createMonitoredList(sb, 'auto money');
	const configure = (listId: number, extra: IDataObject = {}) => ({
		resource: 'automation',
		operation: 'configure',
		listId: listRef(listId),
		configureMode: 'update',
		automation: { isEnabled: true, Triggers: 'New Matches', PurchasePhone: true },
		...extra,
	});

	test("need the node's option; nothing is written without it", async () => {
		const listId = await monitoredList();
		const refused = await run(configure(listId), [{}]);
		expect(refused.error?.message).toBe(
			`The automation of list ${listId} would buy: turn on "Allow Charging Automation" to configure it`,
		);
		expect(sb.sent(`/v1/lists/${listId}/automations`, 'PUT')).toHaveLength(0);
		const allowed = await run(configure(listId, { allowChargingAutomation: true }), [{}]);
		expect(allowed.error).toBeUndefined();
	});

	test("under a credential with a spending ceiling, also need the credential's allowance: no automation can spend past the ceiling behind its back", async () => {
		const listId = await monitoredList();
		const refused = await run(configure(listId, { allowChargingAutomation: true }), [{}], {
			spendingCeiling: 0.01,
		});
		expect(refused.error?.message).toContain(
			'the PropRadar credential does not allow charging automations',
		);
		expect(sb.sent(`/v1/lists/${listId}/automations`, 'PUT')).toHaveLength(0);
		// Adding properties to the list then charges nothing.
		const before = (await chargeLog()).log.length;
		await api(sb, 'PUT', `/v1/lists/${listId}/items`, {
			Criteria: [{ name: 'PropID', value: ['P000601', 'P000602'] }],
		});
		await api(sb, 'GET', '/_sandbox/deliveries?wait=1');
		expect((await chargeLog()).log.slice(before)).toHaveLength(0);
	});
});

describe('turning on an automation that buys', () => {
	test("Webhook > Create with Lists needs the same opt-in when a list's automation buys", async () => {
		const listId = await createMonitoredList(sb, 'buys when on');
		await api(sb, 'PUT', `/v1/lists/${listId}/automations`, {
			isEnabled: 0,
			Triggers: 'New Matches',
			PurchaseEmail: 1,
		});
		const parameters = {
			resource: 'webhook',
			operation: 'create',
			hookUrl: 'http://127.0.0.1:9/hook',
			webhookName: 'crm',
			lists: [String(listId)],
		};
		const refused = await run(parameters, [{}]);
		expect(refused.error?.message).toBe(
			`The automation of list ${listId} would buy: turn on "Allow Charging Automation" to configure it`,
		);
		expect(sb.sent('/v1/integrations/webhooks', 'POST')).toHaveLength(0);
		const underCeiling = await run({ ...parameters, allowChargingAutomation: true }, [{}], {
			spendingCeiling: 1,
		});
		expect(underCeiling.error?.message).toContain('does not allow charging automations');
		expect(sb.sent('/v1/integrations/webhooks', 'POST')).toHaveLength(0);
		const allowed = await run({ ...parameters, allowChargingAutomation: true }, [{}]);
		expect(allowed.error).toBeUndefined();
	});
});

describe.each(PRICE_SCENARIOS)(
	'purchases of several items at once (Buy Items at Once), at prices $name',
	(scenario) => {
		atPrices(scenario);
		const items = Array.from({ length: 10 }, (_, i) => ({
			id: `P${String(811 + i).padStart(6, '0')}`,
		}));
		const buyAtOnce = {
			...parcelsOf,
			chargeMode: 'purchase',
			concurrentPurchases: true,
			itemConcurrency: 10,
		};
		/**
		 * The run's quotes (one per item, before anything is bought) count no records, as if the
		 * properties began to match after them: the run then fits its cap, and its purchases compete for
		 * the cap as their own quotes come in.
		 */
		const quotesFindNothing = (count: number) =>
			sb.faults.push({
				pathPrefix: '/v1/properties/',
				query: { Purchase: '0' },
				count,
				status: 200,
				body: { results: [], totalCost: '0.00', resultCount: 0, quantityFreeRemaining: 0 },
			});

		test('ten items at once under a cap of three purchases at full price: exactly three are bought, never more', async () => {
			await useUpCredits();
			// Every quote waits until all ten are under way, so all ten purchases compete for the cap at once.
			quotesFindNothing(items.length);
			let quotes = 0;
			const allQuoted = new Promise<void>((resolve) => {
				sb.faults.push({
					pathPrefix: '/v1/properties/',
					query: { Purchase: '0' },
					count: 10,
					beforeForward: async () => {
						if (++quotes === 10) resolve();
						await allQuoted;
					},
				});
			});
			const before = (await chargeLog()).log.length;
			const held = heldCents(scenario, 'propertyDetail');
			const result = await run({ ...buyAtOnce, maxCost: Math.round(held * 3.5) / 100 }, items, {
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			expect(quotes).toBe(10);
			const bought = result.json.filter((item) => item._charge);
			const refused = result.json.filter((item) => item.error);
			// Three holds at full price fit; at a price below the node's, a purchase that has ended leaves room for one more.
			if (scenario.pricesCents.propertyDetail >= LIST_PRICES_CENTS.propertyDetail)
				expect(bought).toHaveLength(3);
			else expect(bought.length).toBeGreaterThanOrEqual(3);
			expect(refused).toHaveLength(10 - bought.length);
			expect(refused.every((item) => item.error === 'Purchase refused: over Max Cost')).toBe(true);
			const entries = (await chargeLog()).log.slice(before);
			const spent = entries.reduce((sum, entry) => sum + entry.cents, 0);
			expect(spent).toBe(bought.length * scenario.pricesCents.propertyDetail);
			expect(spent).toBeLessThanOrEqual(Math.round(held * 3.5));
			expect(chargedInOutput(result.items)).toBe(spent);
			expect(sb.requests.filter((request) => request.query.get('Purchase') === '1')).toHaveLength(
				bought.length,
			);
			expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual(
				items.map((_, index) => index),
			);
		});

		test("under the credential's ceiling, the same: concurrent items cannot together pass it", async () => {
			await useUpCredits();
			const before = (await chargeLog()).log.length;
			const ceilingCents = Math.round(heldCents(scenario, 'propertyDetail') * 2.5);
			quotesFindNothing(items.length);
			const result = await run({ ...buyAtOnce, maxCost: 100 }, items, {
				continueOnFail: true,
				spendingCeiling: ceilingCents / 100,
			});
			expect(result.error).toBeUndefined();
			expect(result.json.filter((item) => item._charge)).toHaveLength(2);
			expect(await spentSince(before)).toBeLessThanOrEqual(ceilingCents);
		});

		test('without "On Error: Continue", a failed item stops new items; items under way keep what they bought', async () => {
			// The third item's own quote fails (its quote in the run's quotes went through).
			sb.faults.push({
				pathPrefix: '/v1/properties/P000813',
				query: { Purchase: '0' },
				skip: 1,
				count: 1,
				status: 404,
				body: { error: 'Resource does not exist for given id', eventid: 'tst-404-002' },
			});
			// The purchases under way are held until the third item's quote has failed (its second
			// quote: the first was the run's), and a moment more, so the failure comes before any of
			// them ends, however slow the machine.
			const failedQuoteSent = () =>
				sb.requests.filter(
					(request) =>
						request.path.startsWith('/v1/properties/P000813') &&
						request.query.get('Purchase') === '0',
				).length >= 2 || undefined;
			sb.faults.push({
				pathPrefix: '/v1/properties/',
				query: { Purchase: '1' },
				count: 10,
				beforeForward: async () => {
					await until("the third item's failed quote", failedQuoteSent);
					await new Promise((resolve) => setTimeout(resolve, 150));
				},
			});
			const before = (await chargeLog()).log.length;
			const result = await run({ ...buyAtOnce, itemConcurrency: 4, maxCost: 5 }, items);
			expect(result.error?.httpCode).toBe('404');
			expect(result.error?.description).toContain('except those already under way');
			const entries = (await chargeLog()).log.slice(before);
			expect(entries.length).toBeGreaterThan(0);
			// Every record charged is in the error's data.
			const kept = (result.error?.context as IDataObject).data as IDataObject[];
			expect(
				kept
					.filter((item) => item._charge)
					.map((item) => `parcels of ${String(item.PropID)}`)
					.sort(),
			).toEqual(entries.map((entry) => entry.what).sort());
			// No item after the first four was started.
			expect(
				sb.requests.some(
					(request) =>
						request.query.get('Purchase') === '1' && /P00081[5-9]|P000820/.test(request.path),
				),
			).toBe(false);
		});
	},
);

describe('a purchase that costs more than was held for it', () => {
	test('the run says so and buys nothing more; what it bought is output', async () => {
		// The service answers the second purchase with a charge far above its quote (as a price change would).
		sb.faults.push({
			pathPrefix: '/v1/properties/P000802/parcels',
			query: { Purchase: '1' },
			count: 1,
			status: 200,
			body: { results: [{ PropID: 'P000802' }], totalCost: '5.00', resultCount: 1 },
		});
		const items = ['P000801', 'P000802', 'P000803'].map((id) => ({ id }));
		const result = await run(
			{
				...parcelsOf,
				chargeMode: 'purchase',
				maxCost: 10,
			},
			items,
			{ continueOnFail: true },
		);
		const second = pairedTo(result.items, 1)[0].json;
		expect(second.PropID).toBe('P000802');
		expect((second._charge as IDataObject).notice).toContain(
			'PropRadar charged $5.00 for a purchase quoted at up to $0.25; this run buys nothing more',
		);
		expect(pairedTo(result.items, 2)[0].json.error).toBe(
			'Purchase refused: an earlier purchase of this run cost more than its quote',
		);
		expect(
			sb.sent('/v1/properties/P000803/parcels').filter((r) => r.query.get('Purchase') === '1'),
		).toHaveLength(0);
		const hints = result.run.data.resultData.runData.PropRadar[0].hints ?? [];
		expect(hints.map((hint) => hint.message).join(' ')).toContain('this run buys nothing more');
	});
});

describe("Import: the preview's maxCostNeeded is the Max Cost its purchase needs", () => {
	test('a quote that counts fewer records than are sent: the preview counts every record sent at full price, and that Max Cost buys them', async () => {
		await useUpCredits();
		const listId = await sandboxImportList(sb, 'quote counts fewer');
		const rows = portlandRecords(20, 'Oak St', 400);
		const parameters = importInto(listId, { importOptions: { batchSize: 10 } });
		// Both quotes (the preview's, then the purchase's) count 10 of the 20 records.
		sb.faults.push({
			pathPrefix: `/v1/lists/${listId}/import/items`,
			query: { Purchase: '0' },
			count: 2,
			status: 200,
			body: { results: [], totalCost: '0.50', resultCount: 10, quantityFreeRemaining: 0 },
		});
		const preview = await run({ ...parameters, chargeMode: 'preview' }, rows);
		expect(preview.json[0]).toMatchObject({
			totalCost: '0.50',
			resultCount: 10,
			maxCostNeeded: '1.00',
		});
		const bought = await run(
			{ ...parameters, chargeMode: 'purchase', maxCost: Number(preview.json[0].maxCostNeeded) },
			rows,
		);
		expect(bought.error).toBeUndefined();
		expect(bought.json.every((item) => item.imported === true)).toBe(true);
	});
});

describe('an import batch that costs more than was held for it, or whose answer does not say what it cost', () => {
	test.each([
		[
			'costs more than was held for it',
			{ totalCost: '50.00', resultCount: 10 },
			/^PropRadar charged \$50\.00 for a purchase quoted at up to \$\d+\.\d\d; this run buys nothing more\.$/,
		],
		[
			'does not say what it cost',
			{ resultCount: 10 },
			/^PropRadar's answer did not say what this purchase cost; up to \$\d+\.\d\d is counted as spent and this run buys nothing more\.$/,
		],
	])(
		'a batch that %s: the import buys nothing more, the next batch is not sent, and what was bought is output',
		async (_, answer, notice) => {
			const listId = await sandboxImportList(sb, 'overcharged import');
			// The second batch is imported and charged by the service, and its answer then says more (or nothing) of what it cost.
			sb.faults.push({
				pathPrefix: `/v1/lists/${listId}/import/items`,
				query: { Purchase: '1' },
				skip: 1,
				count: 1,
				statusAfterForward: true,
				status: 200,
				body: {
					results: Array.from({ length: 10 }, (_, i) => ({ ListImportItemID: 9000 + i })),
					...answer,
				},
			});
			const rows = portlandRecords(30, 'Oak St', 300);
			const result = await run(
				importInto(listId, {
					chargeMode: 'purchase',
					maxCost: 100,
					importOptions: { batchSize: 10 },
				}),
				rows,
				{ continueOnFail: true },
			);
			expect(result.error).toBeUndefined();
			expect(
				sb.sent(`/v1/lists/${listId}/import/items`).filter((r) => r.query.get('Purchase') === '1'),
			).toHaveLength(2);
			expect(result.json.slice(0, 20).every((item) => item.imported === true && item._charge)).toBe(
				true,
			);
			expect(String((result.json[10]._charge as IDataObject).notice)).toMatch(notice);
			for (const item of result.json.slice(20)) {
				expect(item).toMatchObject({
					imported: false,
					error: 'Not imported: the import stopped buying',
				});
				expect(String(item.description)).toMatch(
					/this run buys nothing more\. This record was not sent and not charged\.$/,
				);
			}
			expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual(
				rows.map((_, index) => index),
			);
			const hints = result.run.data.resultData.runData.PropRadar[0].hints ?? [];
			expect(hints.map((hint) => hint.message).join(' ')).toContain('this run buys nothing more');
		},
	);
});

describe.each(PRICE_SCENARIOS)(
	'a purchase never buys more than its quote counted (more records match by the time it is sent), at prices $name',
	(scenario) => {
		atPrices(scenario);
		const purchases = () => sb.requests.filter((request) => request.query.get('Purchase') === '1');

		test.each([
			{
				name: 'Property > Search',
				parameters: {
					resource: 'property',
					operation: 'search',
					criteriaMode: 'json',
					criteriaJson: '[{"name":"State","value":["OR"]}]',
					returnAll: true,
					fields: { include: ['PropID'] },
				},
				path: '/v1/properties',
				kind: 'property' as const,
			},
			{
				name: 'Person > Get Records',
				parameters: {
					resource: 'person',
					operation: 'getRecords',
					personKey: 'K000010A',
					recordKind: 'relatives',
					returnAll: true,
				},
				path: '/v1/persons/K000010A/relatives',
				kind: 'personRecord' as const,
			},
		])(
			'$name: a page is bought with Limit set to the records its quote counted',
			async ({ parameters, path, kind }) => {
				const price = scenario.pricesCents[kind];
				await useUpCredits();
				const [quote] = (await run({ ...parameters, chargeMode: 'preview' }, [{}])).json;
				expect(Number(quote.resultCount)).toBeGreaterThan(1);
				const before = (await chargeLog()).log.length;
				// The quote counts one record of several: as if the others began to match after it.
				sb.faults.push({
					pathPrefix: path,
					query: { Purchase: '0' },
					count: 1,
					status: 200,
					body: {
						results: [],
						totalCost: (price / 100).toFixed(2),
						resultCount: 1,
						totalResultCount: 1,
						quantityFreeRemaining: 0,
					},
				});
				const result = await run(
					{ ...parameters, chargeMode: 'purchase', maxCost: heldCents(scenario, kind) / 100 },
					[{}],
				);
				expect(result.error).toBeUndefined();
				expect(purchases().map((request) => request.query.get('Limit'))).toEqual(['1']);
				expect(result.json).toHaveLength(1);
				expect(await spentSince(before)).toBe(price);
			},
		);

		test.each([
			{
				name: 'Property > Get Evictions',
				parameters: { resource: 'property', operation: 'getEvictions', propId: 'P000106' },
				path: '/v1/properties/P000106/evictions',
			},
			{
				name: 'Property > Search',
				parameters: {
					resource: 'property',
					operation: 'search',
					criteriaMode: 'json',
					criteriaJson: '[{"name":"State","value":["OR"]}]',
					returnAll: true,
				},
				path: '/v1/properties',
			},
			{
				name: 'Person > Get Owners',
				parameters: { resource: 'person', operation: 'getOwners', propId: 'P000106' },
				path: '/v1/properties/P000106/persons',
			},
		])(
			'$name: a quote of no records sends no purchase and charges nothing',
			async ({ parameters, path }) => {
				const before = (await chargeLog()).log.length;
				sb.faults.push({
					pathPrefix: path,
					query: { Purchase: '0' },
					count: 1,
					status: 200,
					body: {
						results: [],
						totalCost: '0.00',
						resultCount: 0,
						totalResultCount: 0,
						quantityFreeRemaining: 100,
					},
				});
				const result = await run({ ...parameters, chargeMode: 'purchase', maxCost: 0 }, [{}]);
				expect(result.error).toBeUndefined();
				expect(result.json).toEqual([]);
				expect(purchases()).toEqual([]);
				expect((await chargeLog()).log.slice(before)).toEqual([]);
			},
		);
	},
);

test('Person > Get Owners takes no Limit: owners beyond its quote are charged, and the run then buys nothing more', async () => {
	await useUpCredits();
	const [quote] = (
		await run(
			{ resource: 'person', operation: 'getOwners', propId: 'P000106', chargeMode: 'preview' },
			[{}],
		)
	).json;
	expect(Number(quote.resultCount)).toBeGreaterThan(1);
	// The quote counts one owner: as if the others were added after it.
	// The item's own quote, after the run's quotes.
	sb.faults.push({
		pathPrefix: '/v1/properties/P000106/persons',
		query: { Purchase: '0' },
		skip: 1,
		count: 1,
		status: 200,
		body: { results: [], totalCost: '0.15', resultCount: 1, quantityFreeRemaining: 0 },
	});
	const result = await run(
		{
			resource: 'person',
			operation: 'getOwners',
			propId: '={{ $json.id }}',
			chargeMode: 'purchase',
			maxCost: 5,
		},
		[{ id: 'P000106' }, { id: 'P000110' }],
		{ continueOnFail: true },
	);
	const owners = pairedTo(result.items, 0);
	expect(owners).toHaveLength(Number(quote.resultCount));
	expect((owners[0].json._charge as IDataObject).notice).toContain(
		`PropRadar charged $${String(quote.totalCost)} for a purchase quoted at up to $0.15; this run buys nothing more`,
	);
	expect(pairedTo(result.items, 1)[0].json.error).toBe(
		'Purchase refused: an earlier purchase of this run cost more than its quote',
	);
});

describe.each(PRICE_SCENARIOS)(
	'property details are charged per call, not per record, at prices $name',
	(scenario) => {
		atPrices(scenario);
		test('Get Comps: the preview asks for the Max Cost of one call, and that Max Cost buys every comp', async () => {
			await useUpCredits();
			const parameters = {
				resource: 'property',
				operation: 'getComps',
				propId: 'P000106',
				compsKind: 'sales',
			};
			const [preview] = (await run({ ...parameters, chargeMode: 'preview' }, [{}])).json;
			expect(Number(preview.resultCount)).toBeGreaterThan(1);
			const price = scenario.pricesCents.propertyDetail;
			expect(preview).toMatchObject({
				totalCost: (price / 100).toFixed(2),
				maxCostNeeded: (heldCents(scenario, 'propertyDetail') / 100).toFixed(2),
			});
			const before = (await chargeLog()).log.length;
			const bought = await run(
				{ ...parameters, chargeMode: 'purchase', maxCost: Number(preview.maxCostNeeded) },
				[{}],
			);
			expect(bought.error).toBeUndefined();
			expect(bought.json).toHaveLength(Number(preview.resultCount));
			expect((await chargeLog()).log.slice(before)).toEqual([
				expect.objectContaining({ kind: 'propertyDetail', quantity: 1, cents: price }),
			]);
		});
	},
);
