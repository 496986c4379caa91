import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiEnvelope, ApiRequest } from '../transport';
import { apiRequest, chargedNothing, markMayHaveCharged, toNodeError } from '../transport';
import type { RunSpending, SpendBudget } from './budget';
import { formatCents } from './cents';
import { settleAnswer, warn, type ChargeNote } from './chargeNote';
import { recordsCharged, type PriceKind } from './prices';
import { chargeMode, type ChargeMode, type ChargePass } from './properties';
import {
	fullPriceCents,
	previewRecord,
	readQuote,
	requestQuote,
	worstCaseCents,
	type Quote,
} from './quote';
import { purchaseBudget, refusal } from './refusal';

// One purchase (`buy`: one `Purchase=1` request), and an item charged by one (`chargedRequest`):
// quoted, checked, bought once. Pages, batches and IDs in batches are each a series of such
// purchases (pages.ts, batches.ts, idBatches.ts).

export interface Bought {
	response: ApiEnvelope;
	note: ChargeNote;
}

/** One `Purchase=1` request, held at full price (docs/money.md, rules 1 and 3); a quote of no records sends none. */
export async function buy(
	context: IExecuteFunctions,
	budget: SpendBudget,
	kind: PriceKind,
	quote: Quote,
	request: ApiRequest,
	itemIndex: number,
): Promise<Bought> {
	const held = worstCaseCents(kind, quote);
	const refused = budget.hold(held);
	if (refused) throw refusal(context, refused, itemIndex);
	if (quote.count === 0) {
		budget.release(held);
		return {
			response: { results: [], totalCost: formatCents(0), resultCount: 0 },
			note: { totalCost: formatCents(0), resultCount: 0, runTotalCost: formatCents(budget.spent) },
		};
	}
	let response: ApiEnvelope;
	try {
		response = await apiRequest<ApiEnvelope>(context, {
			...request,
			qs: { ...request.qs, Purchase: 1 },
			repeatable: false,
			itemIndex,
		});
	} catch (error) {
		const nodeError = toNodeError(context.getNode(), error, itemIndex);
		if (chargedNothing(error)) budget.release(held);
		else {
			budget.keepUnconfirmed(
				held,
				`a purchase (${request.method} ${request.path}) whose answer was lost or failed`,
			);
			markMayHaveCharged(nodeError);
		}
		throw nodeError;
	}
	const records = Array.isArray(response?.results) ? response.results.length : 0;
	const { charged, notice } = settleAnswer(
		budget,
		held,
		response,
		records,
		`a purchase (${request.method} ${request.path})`,
	);
	budget.atFullPriceCents += recordsCharged(kind, records) * fullPriceCents(kind, quote);
	return {
		response,
		note: {
			totalCost: charged === undefined ? 'unknown' : formatCents(charged),
			resultCount: response?.resultCount ?? records,
			runTotalCost: formatCents(budget.spent),
			...(notice ? { notice } : {}),
		},
	};
}

export interface ChargedRequestResult {
	mode: ChargeMode;
	/** The answer of the purchase, or of the quote. */
	response: ApiEnvelope;
	preview?: IDataObject;
	note?: ChargeNote;
}

export async function chargedRequest(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndex: number,
	pass: ChargePass,
	kind: PriceKind,
	request: ApiRequest,
): Promise<ChargedRequestResult> {
	const mode = chargeMode(context, pass, itemIndex);
	const budget =
		mode === 'purchase' ? await purchaseBudget(context, spending, itemIndex) : undefined;
	const response = await requestQuote(context, request, itemIndex, budget !== undefined);
	const quote = readQuote(context, response, itemIndex);
	if (!budget) return { mode, response, preview: previewRecord(kind, response, quote, {}) };
	const { response: bought, note } = await buy(context, budget, kind, quote, request, itemIndex);
	if (note.notice) warn(context, note.notice);
	return { mode, response: bought, note };
}
