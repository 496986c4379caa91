import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiEnvelope, ApiRequest } from '../transport';
import {
	apiRequest,
	chargedNothing,
	markMayHaveCharged,
	noResultsArray,
	toNodeError,
} from '../transport';
import type { RunSpending, SpendBudget } from './budget';
import { formatCents, money } from './cents';
import { settleAnswer, type ChargeNote } from './chargeNote';
import { recordsCharged, type PriceKind } from './prices';
import { chargeMode, type ChargePass } from './properties';
import {
	fullPriceCents,
	previewRecord,
	readQuote,
	requestQuote,
	worstCaseCents,
	type Quote,
} from './quote';
import { purchaseBudget, refusal } from './refusal';

// One purchase (`buy`: one `Purchase=1` request) and an item's quote before it (`quoteItem`).
// Pages, batches and IDs in batches are each a series of such purchases.

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
	const what = `a purchase (${request.method} ${request.path})`;
	if (!Array.isArray(response?.results)) {
		budget.keepUnconfirmed(held, `${what} whose answer had no results array`);
		const lost =
			`The purchase was sent and may have been charged (up to ${money(held)}, totalCost ` +
			`${JSON.stringify(response?.totalCost ?? null)}) for records that did not reach the ` +
			`output. This run buys nothing more: check the account's charges in PropRadar first.`;
		throw markMayHaveCharged(noResultsArray(context.getNode(), response, what, lost, itemIndex));
	}
	const records = response.results.length;
	const { charged, notice } = settleAnswer(budget, held, response, records, what);
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

/** An item's charged request before anything is bought: its preview, or the quote a purchase buys. */
export type ItemQuote = { preview: IDataObject } | { quote: Quote };

/** The item's Charge Mode, the refusals before anything is sent, then the free quote. */
export async function quoteItem(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndex: number,
	pass: ChargePass,
	kind: PriceKind,
	request: ApiRequest,
): Promise<ItemQuote> {
	const purchasing = chargeMode(context, pass, itemIndex) === 'purchase';
	if (purchasing) await purchaseBudget(context, spending, itemIndex);
	const response = await requestQuote(context, request, itemIndex, purchasing);
	const quote = readQuote(context, response, itemIndex);
	return purchasing ? { quote } : { preview: previewRecord(kind, response, quote, {}) };
}
