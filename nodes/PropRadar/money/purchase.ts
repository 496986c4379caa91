import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	apiRequest,
	chargedNothing,
	markMayHaveCharged,
	noResultsArray,
	toNodeError,
} from '../transport';
import type { ApiEnvelope, ApiRequest } from '../transport';
import { refusal, type RunSpending, type SpendBudget } from './budget';
import { chargeMode, type ChargePass } from './properties';
import {
	formatCents,
	fullPriceCents,
	money,
	previewRecord,
	readCents,
	readQuote,
	recordsCharged,
	requestQuote,
	worstCaseCents,
} from './quote';
import type { PriceKind, Quote } from './quote';

export interface ChargeNote extends IDataObject {
	/** What the purchase (one request) the record came from cost, and how many records it charged. */
	totalCost: string;
	resultCount: number;
	runTotalCost: string;
	/** Set when the run stopped buying before it had everything that was asked for. */
	notice?: string;
}

/** A purchase's answer settled in the budget, and the `_charge` note of its records. */
export function settleAnswer(
	budget: SpendBudget,
	heldCents: number,
	response: ApiEnvelope,
	what: string,
): ChargeNote {
	const records = (response.results ?? []).length;
	const charged = readCents(response?.totalCost);
	let notice: string | undefined;
	if (charged === undefined) {
		budget.keepUnconfirmed(heldCents, `${what} whose answer gave no readable totalCost`);
		budget.settle(0, 0, records);
		notice = `PropRadar's answer did not say what this purchase cost; up to ${money(heldCents)} is counted as spent and this run buys nothing more.`;
	} else notice = budget.settle(heldCents, charged, records);
	return {
		totalCost: charged === undefined ? 'unknown' : formatCents(charged),
		resultCount: response?.resultCount ?? records,
		runTotalCost: formatCents(budget.spent),
		...(notice ? { notice } : {}),
	};
}

export function withCharge(records: IDataObject[], note: ChargeNote): IDataObject[] {
	return records.map((record) => ({ ...record, _charge: note }));
}

/** Whether an item's records include one bought (charged or paid by credits) by this run. */
export function boughtIn(records: IDataObject[]): boolean {
	return records.some(
		(record) =>
			record._charge !== undefined && record.preview !== true && record.purchased !== false,
	);
}

export function warn(context: IExecuteFunctions, message: string): void {
	context.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}

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
	const what = `a purchase (${request.method} ${request.path})`;
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
			budget.keepUnconfirmed(held, `${what} whose answer was lost or failed`);
			markMayHaveCharged(nodeError);
		}
		throw nodeError;
	}
	if (!Array.isArray(response?.results)) {
		budget.keepUnconfirmed(held, `${what} whose answer had no results array`);
		const lost = `The purchase was sent and may have been charged (up to ${money(held)}, totalCost ${JSON.stringify(response?.totalCost ?? null)}) for records that did not reach the output. This run buys nothing more: check the account's charges in PropRadar first.`;
		throw markMayHaveCharged(noResultsArray(context.getNode(), response, what, lost, itemIndex));
	}
	const note = settleAnswer(budget, held, response, what);
	const records = response.results.length;
	budget.atFullPriceCents += recordsCharged(kind, records) * fullPriceCents(kind, quote);
	return { response, note };
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
	if (purchasing) await spending.purchaseBudget(itemIndex);
	const response = await requestQuote(context, request, itemIndex, purchasing);
	const quote = readQuote(context, response, itemIndex);
	return purchasing ? { quote } : { preview: previewRecord(kind, response, quote, {}) };
}
