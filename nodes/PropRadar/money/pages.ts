import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiRequest } from '../transport';
import { markMayHaveCharged, mayHaveCharged, toNodeError } from '../transport';
import { formatCents, money } from './cents';
import type { RunSpending } from './budget';
import type { PriceKind } from './prices';
import { chargeMode, type ChargePass } from './properties';
import { warn, withCharge, type ChargeNote } from './chargeNote';
import { buy, type Bought } from './purchase';
import { purchaseBudget, refusal } from './refusal';
import {
	fullPriceCents,
	previewRecord,
	readQuote,
	requestQuote,
	revealedPriceCents,
} from './quote';

/** A purchase that stopped before it had all it was asked for: what it bought travels with its error. */
export class StoppedAfterBuying extends NodeOperationError {
	constructor(
		node: INode,
		message: string,
		readonly bought: IDataObject[],
		options: { itemIndex: number; description: string },
	) {
		super(node, message, options);
	}
}

export interface PagedCharge {
	kind: PriceKind;
	pageSize: number;
	/** Undefined: Return All. */
	limit?: number;
}

/**
 * Property > Search, Person > Get Records: each page quoted and held; what was bought before a
 * failure goes with its error (docs/money.md, rule 6).
 */
export async function chargedPages(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndex: number,
	pass: ChargePass,
	request: ApiRequest,
	{ kind, pageSize, limit }: PagedCharge,
	previewExtra: IDataObject = {},
): Promise<IDataObject[]> {
	const mode = chargeMode(context, pass, itemIndex);
	const budget =
		mode === 'purchase' ? await purchaseBudget(context, spending, itemIndex) : undefined;
	const pageRequest = (start: number, size: number): ApiRequest => ({
		...request,
		qs: { ...request.qs, Start: start, Limit: size },
	});
	const firstSize = Math.min(limit ?? pageSize, pageSize);
	const firstResponse = await requestQuote(
		context,
		pageRequest(0, firstSize),
		itemIndex,
		budget !== undefined,
	);
	const first = readQuote(context, firstResponse, itemIndex);
	const price = fullPriceCents(kind, first);
	// How many records are wanted, when the service says how many there are (or a full first page does not end them).
	const known = first.totalResultCount ?? (first.count < firstSize ? first.count : undefined);
	const wanted = known === undefined ? limit : Math.min(limit ?? known, known);

	if (!budget) {
		const record = previewRecord(kind, firstResponse, first, {
			...previewExtra,
			...(first.totalResultCount === undefined ? {} : { totalResultCount: first.totalResultCount }),
		});
		if (wanted === undefined) {
			record.note =
				`The quote covers the first page of ${first.count}; how many more there are is ` +
				`not known before buying, and each further page is quoted before it is bought.`;
		} else if (wanted > first.count) {
			const paid = Math.max(0, wanted - (first.freeRemaining ?? 0));
			// The estimate is at the price the quote shows; the Max Cost needed at full price.
			const each = revealedPriceCents(kind, first) ?? price;
			record.wanted = wanted;
			record.resultCount = wanted;
			record.totalCost = formatCents(paid * each);
			record.estimated = true;
			record.maxCostNeeded = formatCents(wanted * price);
			record.note =
				`${wanted} records are wanted, bought ${pageSize} per request, each page ` +
				`quoted before it is bought. Estimate: free export credits ` +
				`(${first.freeRemaining ?? 0} left) pay for the first ones, the other ${paid} ` +
				`cost ${money(each)} each, ${money(paid * each)} in all. A purchase needs Max ` +
				`Cost of at least ${money(wanted * price)}: every record counted at full ` +
				`price, in case the credits run out first.`;
		} else {
			record.wanted = wanted;
		}
		return [record];
	}

	if (wanted !== undefined && wanted > first.count) {
		const refused = budget.hold(wanted * price);
		if (refused) {
			throw refusal(
				context,
				`${refused.replace('This purchase needs', `All ${wanted} records need`)} ` +
					`Nothing was bought, since buying only some pages of the ` +
					`result was not asked for.`,
				itemIndex,
			);
		}
		budget.release(wanted * price);
	}

	const records: IDataObject[] = [];
	let stopped: string | undefined;
	let stoppedMayHaveCharged = false;
	for (let start = 0, size = firstSize, quote = first; ;) {
		let bought: Bought;
		try {
			// Never more records than the quote counted, even when more match by the time of the purchase.
			bought = await buy(
				context,
				budget,
				kind,
				quote,
				pageRequest(start, Math.min(size, quote.count)),
				itemIndex,
			);
		} catch (error) {
			if (records.length === 0) throw toNodeError(context.getNode(), error, itemIndex);
			const nodeError = toNodeError(context.getNode(), error, itemIndex);
			stoppedMayHaveCharged = mayHaveCharged(nodeError);
			stopped = (
				`Stopped after ${records.length} records: ${nodeError.message}. ` +
				`${nodeError.description ?? ''}`
			).trim();
			break;
		}
		const results = bought.response.results ?? [];
		records.push(...withCharge(results, bought.note));
		start += results.length;
		const remaining = Math.min(limit ?? Infinity, wanted ?? Infinity) - records.length;
		if (results.length < size || remaining <= 0) {
			if (bought.note.notice) warn(context, bought.note.notice);
			break;
		}
		if (bought.note.notice) {
			stopped = bought.note.notice;
			break;
		}
		size = Math.min(pageSize, remaining);
		try {
			quote = readQuote(
				context,
				await requestQuote(context, pageRequest(start, size), itemIndex, true),
				itemIndex,
			);
		} catch (error) {
			const nodeError = toNodeError(context.getNode(), error, itemIndex);
			stopped =
				`Stopped after ${records.length} records: the quote of the next page failed ` +
				`(${nodeError.message}), so nothing more was bought.`;
			break;
		}
	}
	if (stopped) {
		const notBought =
			wanted === undefined
				? ''
				: `; ${Math.max(0, wanted - records.length)} of the ${wanted} wanted were not bought`;
		const notice = `${stopped} ${records.length} records were bought${notBought}.`;
		for (const record of records) (record._charge as ChargeNote).notice = notice;
		const stop = new StoppedAfterBuying(
			context.getNode(),
			`Purchase stopped after ${records.length} records`,
			records,
			{ itemIndex, description: notice },
		);
		throw stoppedMayHaveCharged ? markMayHaveCharged(stop) : stop;
	}
	return records;
}
