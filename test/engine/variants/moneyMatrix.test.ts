/* eslint-disable no-console -- the matrix prints its figures, as test/engine/money.test.ts does */
/**
 * The money fault matrix against the sandbox's money variants (issue 59, docs/api.md "Every
 * guess"): charging operations, three items each, a fault on the second item's quote or purchase,
 * before and after the service acted, and free credits used up between quote and purchase. After
 * every run, from the sandbox's charge log: nothing past Max Cost, no purchase sent twice, every
 * charge the node was told of in the output. Retry On Fail refuses a purchase before anything is
 * sent; 429s without Retry-After are retried on a quote and never on a purchase.
 */
import type { IDataObject } from 'n8n-workflow';

import type { VariantName } from '../../../sandbox/types';
import { TOKENS, type Fault, type NodeRun } from '../../support/harness';
import { api, control, sandboxCharges, useEngineSandbox, useVariants } from '../../support/helpers';
import { cents, chargedInOutput, pairedTo, runCharging } from '../../support/moneyMatrix';

const sb = useEngineSandbox();
beforeEach(async () => {
	sb.faults.length = 0;
	sb.requests.length = 0;
	await control(sb, 'POST', '/_sandbox/reset');
});
afterEach(() => useVariants(sb, []));

const chargeLog = () => sandboxCharges(sb, TOKENS.main);

/**
 * Another client of the same account buys 100 properties, 20 a request (as short-page allows): the
 * free export credits are gone.
 */
const OTHERS_PAGE = 20;
const useUpCredits = async () => {
	for (let start = 0; start < 100; start += OTHERS_PAGE)
		await api(sb, 'POST', `/v1/properties?Purchase=1&Start=${start}&Limit=${OTHERS_PAGE}`, {
			Criteria: [{ name: 'State', value: ['WA'] }],
		});
};

interface ChargingOperation {
	name: string;
	parameters: IDataObject;
	items: IDataObject[];
	/** What identifies an item's purchase in a request (its path or its body). */
	target: (item: IDataObject) => string;
}
// Properties with eviction records, so every property operation charges (as in money.test.ts).
const properties = ['P000106', 'P000110', 'P000112'].map((id) => ({ id }));
const persons = ['K000106A', 'K000110A', 'K000112A'].map((key) => ({ key }));
const OPERATIONS: ChargingOperation[] = [
	{
		name: 'Property > Get Evictions',
		parameters: { resource: 'property', operation: 'getEvictions', propId: '={{ $json.id }}' },
		items: properties,
		target: (item) => `/v1/properties/${String(item.id)}/evictions`,
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
		target: (item) => `"${String(item.id)}"`,
	},
	{
		name: 'Person > Get Owners',
		parameters: { resource: 'person', operation: 'getOwners', propId: '={{ $json.id }}' },
		items: properties,
		target: (item) => `/v1/properties/${String(item.id)}/persons`,
	},
	{
		name: 'Person > Purchase Phone',
		parameters: { resource: 'person', operation: 'purchasePhone', personKey: '={{ $json.key }}' },
		items: persons,
		target: (item) => `/v1/persons/${String(item.key)}/Phone`,
	},
];

interface FaultCase {
	name: string;
	fault: Omit<Fault, 'pathPrefix' | 'count'>;
	/** The service acted on the purchase before the fault: its charge may be unknown to the node. */
	after?: boolean;
	creditsUsedUp?: boolean;
}
const injected = { error: 'Injected fault', eventid: 'tst-flt-001' };
const FAULT_CASES: FaultCase[] = [
	{ name: 'quote answers 500', fault: { query: { Purchase: '0' }, status: 500 } },
	{
		name: 'purchase 500 before the service acted',
		fault: { query: { Purchase: '1' }, status: 500, body: injected },
	},
	{
		name: 'purchase 429 before the service acted',
		fault: { query: { Purchase: '1' }, status: 429, body: injected },
	},
	{
		name: 'purchase 502 after the service acted',
		fault: { query: { Purchase: '1' }, statusAfterForward: true, status: 502, body: injected },
		after: true,
	},
	{
		name: 'purchase connection dropped after the service acted',
		fault: { query: { Purchase: '1' }, dropAfterForward: true },
		after: true,
	},
	{
		name: 'free credits used up between quote and purchase',
		fault: { query: { Purchase: '1' } },
		creditsUsedUp: true,
	},
];

/** The money variants; `buys` false: the node cannot read the quote and must stop before buying. */
const VARIANTS: Array<{ variant: VariantName; buys: boolean }> = [
	{ variant: 'money-numbers', buys: true },
	{ variant: 'no-result-count', buys: false },
	{ variant: 'no-free-remaining', buys: true },
	{ variant: 'extra-fields', buys: true },
	{ variant: 'short-page', buys: true },
	{ variant: 'no-total-result-count', buys: true },
];

const summary = new Map<
	string,
	{ runs: number; overCap: number; doubleCharges: number; missing: number }
>();
const figures = (variant: string) => {
	if (!summary.has(variant))
		summary.set(variant, { runs: 0, overCap: 0, doubleCharges: 0, missing: 0 });
	return summary.get(variant)!;
};
afterAll(() => {
	for (const [variant, f] of summary)
		console.log(
			`money under faults, variant ${variant}: ${f.runs} runs, ${f.overCap} over a cap, ${f.doubleCharges} double charges, ${f.missing} charged and missing`,
		);
});

/** Max Cost as a preview on the full service shows it: what the three purchases need at full price. */
async function maxCostOf(operation: ChargingOperation): Promise<number> {
	const preview = await runCharging(
		sb,
		{ ...operation.parameters, chargeMode: 'preview' },
		operation.items,
		{
			continueOnFail: true,
		},
	);
	const needed = preview.json.reduce((sum, quote) => sum + cents(quote.maxCostNeeded), 0);
	expect(needed).toBeGreaterThan(0);
	return needed / 100;
}

/** The three figures of a run: checked, counted under `variant`, and what the run sent. */
async function checkMoney(
	variant: string,
	operation: ChargingOperation,
	result: NodeRun,
	from: { requests: number; charges: number },
	maxCost: number,
	options: { after?: boolean; othersBought?: boolean } = {},
) {
	const f = figures(variant);
	f.runs++;
	const entries = (await chargeLog()).log.slice(from.charges);
	// Another client's purchases of 20 properties each are not the run's (which buys 1 to 3 an item).
	const ours = options.othersBought
		? entries.filter((entry) => entry.quantity !== OTHERS_PAGE)
		: entries;
	const spent = ours.reduce((sum, entry) => sum + entry.cents, 0);
	if (spent > cents(maxCost)) f.overCap++;
	const purchases = sb.requests
		.slice(from.requests)
		.filter((request) => request.query.get('Purchase') === '1');
	const targets = purchases.map((request) =>
		operation.items.findIndex((item) =>
			`${request.path} ${request.body}`.includes(operation.target(item)),
		),
	);
	if (new Set(targets).size !== targets.length || ours.length > purchases.length) f.doubleCharges++;
	const inOutput = chargedInOutput(result.items);
	if (options.after ? inOutput > spent : inOutput !== spent) f.missing++;

	expect(spent).toBeLessThanOrEqual(cents(maxCost));
	expect(targets.every((index) => index >= 0)).toBe(true);
	expect(new Set(targets).size).toBe(targets.length);
	expect(ours.length).toBeLessThanOrEqual(purchases.length);
	if (options.after) expect(inOutput).toBeLessThanOrEqual(spent);
	else expect(inOutput).toBe(spent);
	return { spent, purchases, targets };
}

describe.each(VARIANTS)('variant $variant', ({ variant, buys }) => {
	describe.each(OPERATIONS)('$name in Purchase mode', (operation) => {
		test.each(FAULT_CASES)('$name', async (faultCase) => {
			const maxCost = await maxCostOf(operation);
			await useVariants(sb, [variant]);
			const from = { requests: sb.requests.length, charges: (await chargeLog()).log.length };
			// On the second item: after the run's quotes (one per item) and the first item's own.
			const skip = faultCase.fault.query?.Purchase === '0' ? operation.items.length + 1 : 1;
			const fault: Fault = { pathPrefix: '/v1/', count: 1, skip, ...faultCase.fault };
			if (faultCase.creditsUsedUp) fault.beforeForward = useUpCredits;
			else if (faultCase.fault.query?.Purchase === '0') fault.count = 4; // past the retries of a read
			sb.faults.push(fault);

			const result = await runCharging(
				sb,
				{ ...operation.parameters, chargeMode: 'purchase', maxCost },
				operation.items,
				{ continueOnFail: true },
			);
			expect(result.error).toBeUndefined();
			const { spent, purchases, targets } = await checkMoney(
				variant,
				operation,
				result,
				from,
				maxCost,
				{
					after: faultCase.after,
					othersBought: faultCase.creditsUsedUp,
				},
			);

			if (!buys) {
				// The quote cannot be read: nothing bought, each item says so.
				expect(purchases).toHaveLength(0);
				expect(spent).toBe(0);
				for (const index of [0, 1, 2])
					expect(String(pairedTo(result.items, index)[0]?.json.description)).toMatch(
						/nothing was (bought or )?charged/i,
					);
				return;
			}
			if (faultCase.creditsUsedUp) return;
			const second = pairedTo(result.items, 1);
			expect(second).toHaveLength(1);
			const said = `${String(second[0].json.error)} ${String(second[0].json.description)}`;
			if (faultCase.fault.query?.Purchase === '0' || faultCase.fault.status === 429) {
				expect(said).toMatch(/nothing was (bought or )?charged/i);
				expect(said).not.toMatch(/may have been charged/);
			} else {
				expect(said).toMatch(/may have been charged/);
				// The run buys nothing more after a purchase that may have been charged.
				expect(String(pairedTo(result.items, 2)[0]?.json.error)).toBe(
					'Purchase refused: an earlier purchase of this run may have been charged',
				);
				expect(targets).not.toContain(2);
			}
		});

		test('Retry On Fail on: the purchase is refused before anything is sent', async () => {
			await useVariants(sb, [variant]);
			const from = { requests: sb.requests.length, charges: (await chargeLog()).log.length };
			const result = await runCharging(
				sb,
				{ ...operation.parameters, chargeMode: 'purchase', maxCost: 5 },
				operation.items,
				{ retryOnFail: true },
			);
			expect(result.error?.message).toBe('Purchase refused: "Retry On Fail" is on for this node');
			await checkMoney(variant, operation, result, from, 5);
			expect(sb.requests.length).toBe(from.requests);
		});
	});
});

describe('variant no-retry-after: 429s without Retry-After', () => {
	// The sandbox's own faults, so that the variant strips their Retry-After.
	const tooManyRequests = (path: string, query: Record<string, string>, count: number, skip = 0) =>
		control(sb, 'POST', '/_sandbox/faults', {
			path,
			query,
			status: 429,
			retryAfter: '1',
			count,
			skip,
		});
	const byPath = OPERATIONS.filter((operation) => operation.name !== 'Property > Search');

	test.each(byPath)(
		'$name: a quote answered 429 twice is asked again; all three bought once',
		async (operation) => {
			const maxCost = await maxCostOf(operation);
			await useVariants(sb, ['no-retry-after']);
			const from = { requests: sb.requests.length, charges: (await chargeLog()).log.length };
			await tooManyRequests(operation.target(operation.items[1]), { Purchase: '0' }, 2);
			const result = await runCharging(
				sb,
				{ ...operation.parameters, chargeMode: 'purchase', maxCost },
				operation.items,
				{ continueOnFail: true },
			);
			const { targets } = await checkMoney('no-retry-after', operation, result, from, maxCost);
			expect(result.json.filter((item) => item.error !== undefined)).toEqual([]);
			expect([...targets].sort()).toEqual([0, 1, 2]);
		},
	);

	test.each(byPath)(
		'$name: a purchase answered 429 is not sent again; nothing charged for it',
		async (operation) => {
			const maxCost = await maxCostOf(operation);
			await useVariants(sb, ['no-retry-after']);
			const from = { requests: sb.requests.length, charges: (await chargeLog()).log.length };
			await tooManyRequests(operation.target(operation.items[1]), { Purchase: '1' }, 1);
			const result = await runCharging(
				sb,
				{ ...operation.parameters, chargeMode: 'purchase', maxCost },
				operation.items,
				{ continueOnFail: true },
			);
			const { targets } = await checkMoney('no-retry-after', operation, result, from, maxCost);
			expect(targets.filter((index) => index === 1)).toHaveLength(1);
			const said = pairedTo(result.items, 1).map(
				(item) => `${String(item.json.error)} ${String(item.json.description)}`,
			);
			expect(said).toHaveLength(1);
			expect(said[0]).toMatch(/nothing was (bought or )?charged/i);
		},
	);
});
