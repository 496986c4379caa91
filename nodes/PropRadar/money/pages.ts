import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { markMayHaveCharged, mayHaveCharged, toNodeError } from '../transport';
import type { ApiEnvelope, ApiRequest } from '../transport';
import { chargeMode, type ChargePass } from './properties';
import { refusal, type RunSpending, type SpendBudget } from './budget';
import { buy, warn, withCharge, type Bought, type ChargeNote } from './purchase';
import {
	formatCents,
	fullPriceCents,
	money,
	previewRecord,
	readQuote,
	requestQuote,
	revealedPriceCents,
} from './quote';
import type { PriceKind, Quote } from './quote';

/** A purchase that stopped before it had all it was asked for: what it bought travels with its error. */
export class StoppedAfterBuying extends NodeOperationError {
	bought: IDataObject[] = [];
}

export interface PagedCharge {
	kind: PriceKind;
	pageSize: number;
	/** Undefined: Return All. */
	limit?: number;
}

const pageRequest = (request: ApiRequest, start: number, size: number): ApiRequest => ({
	...request,
	qs: { ...request.qs, Start: start, Limit: size },
});

/** The preview of a paged read: its first page's quote, and an estimate when more are wanted. */
function pagedPreview(
	kind: PriceKind,
	response: ApiEnvelope,
	first: Quote,
	{ pageSize, firstSize, wanted }: { pageSize: number; firstSize: number; wanted?: number },
	extra: IDataObject,
): IDataObject {
	const total = first.totalResultCount;
	const record = previewRecord(kind, response, first, {
		...extra,
		...(total === undefined ? {} : { totalResultCount: total }),
	});
	if (wanted === undefined) {
		record.note = `The quote covers the first page of ${first.count}; how many more there are is not known before buying, and each further page is quoted before it is bought.`;
		return record;
	}
	record.wanted = wanted;
	if (wanted <= first.count) return record;
	const price = fullPriceCents(kind, first);
	const paid = Math.max(0, wanted - (first.freeRemaining ?? 0));
	// The estimate is at the price the quote shows; the Max Cost needed at full price.
	const each = revealedPriceCents(kind, first) ?? price;
	// A page cut short tells how many PropRadar gives a request, whatever Limit asks.
	const perRequest =
		first.count < firstSize
			? `PropRadar's first page held ${first.count} of the ${firstSize} asked`
			: `bought ${pageSize} per request`;
	Object.assign(record, {
		resultCount: wanted,
		totalCost: formatCents(paid * each),
		estimated: true,
		maxCostNeeded: formatCents(wanted * price),
		note: `${wanted} records are wanted, ${perRequest}, each page quoted before it is bought. Estimate: free export credits (${first.freeRemaining ?? 0} left) pay for the first ones, the other ${paid} cost ${money(each)} each, ${money(paid * each)} in all. A purchase needs Max Cost of at least ${money(wanted * price)}: every record counted at full price, in case the credits run out first.`,
	});
	return record;
}

interface PageRun {
	context: IExecuteFunctions;
	budget: SpendBudget;
	itemIndex: number;
	request: ApiRequest;
	charge: PagedCharge;
	wanted?: number;
}

/** The pages bought in turn, each quoted first; why buying stopped early, if it did. */
async function buyPages(
	run: PageRun,
	first: Quote,
	firstSize: number,
): Promise<{ records: IDataObject[]; stopped?: string; mayHaveCharged?: boolean }> {
	const { context, budget, itemIndex, request, charge, wanted } = run;
	const records: IDataObject[] = [];
	const total = first.totalResultCount;
	for (let start = 0, size = firstSize, quote = first; ;) {
		let bought: Bought;
		try {
			// Never more records than the quote counted, even when more match by the time of the purchase.
			const page = pageRequest(request, start, Math.min(size, quote.count));
			bought = await buy(context, budget, charge.kind, quote, page, itemIndex);
		} catch (error) {
			const nodeError = toNodeError(context.getNode(), error, itemIndex);
			if (records.length === 0) throw nodeError;
			const stopped = `Stopped after ${records.length} records: ${nodeError.message}. ${nodeError.description ?? ''}`;
			return { records, stopped: stopped.trim(), mayHaveCharged: mayHaveCharged(nodeError) };
		}
		const results = bought.response.results ?? [];
		records.push(...withCharge(results, bought.note));
		start += results.length;
		const remaining = Math.min(charge.limit ?? Infinity, wanted ?? Infinity) - records.length;
		// A page shorter than asked ends the read only when no total says more are there: PropRadar
		// may hold fewer records a page than Limit asks for.
		const cutShort = results.length < size && total === undefined;
		if (results.length === 0 || cutShort || remaining <= 0) {
			if (bought.note.notice) warn(context, bought.note.notice);
			return { records };
		}
		if (bought.note.notice) return { records, stopped: bought.note.notice };
		size = Math.min(charge.pageSize, remaining);
		try {
			const next = await requestQuote(context, pageRequest(request, start, size), itemIndex, true);
			quote = readQuote(context, next, itemIndex);
		} catch (error) {
			const nodeError = toNodeError(context.getNode(), error, itemIndex);
			const stopped = `Stopped after ${records.length} records: the quote of the next page failed (${nodeError.message}), so nothing more was bought.`;
			return { records, stopped };
		}
	}
}

/** Property > Search, Person > Get Records: what was bought before a failure goes with its error (rule 6). */
export async function chargedPages(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndex: number,
	pass: ChargePass,
	request: ApiRequest,
	charge: PagedCharge,
	previewExtra: IDataObject = {},
): Promise<IDataObject[]> {
	const { kind, pageSize, limit } = charge;
	const purchasing = chargeMode(context, pass, itemIndex) === 'purchase';
	const budget = purchasing ? await spending.purchaseBudget(itemIndex) : undefined;
	const firstSize = Math.min(limit ?? pageSize, pageSize);
	const page = pageRequest(request, 0, firstSize);
	const firstResponse = await requestQuote(context, page, itemIndex, purchasing);
	const first = readQuote(context, firstResponse, itemIndex);
	// How many records are wanted, when the service says how many there are (or a full first page does not end them).
	const known = first.totalResultCount ?? (first.count < firstSize ? first.count : undefined);
	const wanted = known === undefined ? limit : Math.min(limit ?? known, known);
	if (!budget)
		return [
			pagedPreview(kind, firstResponse, first, { pageSize, firstSize, wanted }, previewExtra),
		];

	if (wanted !== undefined && wanted > first.count) {
		const all = wanted * fullPriceCents(kind, first);
		const needs = `All ${wanted} records need up to ${money(all)} (every record at full price)`;
		const refused = budget.refusalFor(all, needs);
		if (refused) {
			throw refusal(
				context,
				`${refused} Nothing was bought, since buying only some pages of the result was not asked for.`,
				itemIndex,
			);
		}
	}
	const run: PageRun = { context, budget, itemIndex, request, charge, wanted };
	const { records, stopped, mayHaveCharged: unknown } = await buyPages(run, first, firstSize);
	if (!stopped) return records;
	const notBought =
		wanted === undefined
			? ''
			: `; ${Math.max(0, wanted - records.length)} of the ${wanted} wanted were not bought`;
	const notice = `${stopped} ${records.length} records were bought${notBought}.`;
	for (const record of records) (record._charge as ChargeNote).notice = notice;
	const message = `Purchase stopped after ${records.length} records`;
	const stop = new StoppedAfterBuying(context.getNode(), message, {
		itemIndex,
		description: notice,
	});
	stop.bought = records;
	throw unknown ? markMayHaveCharged(stop) : stop;
}
