import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	apiRequest,
	chargedNothing,
	markMayHaveCharged,
	noResultsArray,
	toNodeError,
} from '../transport';
import type { ApiEnvelope, ApiRequest } from '../transport';
import { readMaxCost, type RunSpending, type SpendBudget } from './budget';
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

// One purchase (`buy`), an item's quote before it (`quoteItem`), and what every shape of purchase shares.

export interface ChargeNote extends IDataObject {
	/** What the purchase (one request) the record came from cost, and how many records it charged. */
	totalCost: string;
	resultCount: number;
	runTotalCost: string;
	/** Set when the run stopped buying before it had everything that was asked for. */
	notice?: string;
}

export function settleAnswer(
	budget: SpendBudget,
	heldCents: number,
	response: ApiEnvelope,
	records: number,
	what: string,
): { charged?: number; notice?: string } {
	const charged = readCents(response?.totalCost);
	if (charged === undefined) {
		budget.keepUnconfirmed(heldCents, `${what} whose answer gave no readable totalCost`);
		budget.settle(0, 0, records);
		return {
			notice: `PropRadar's answer did not say what this purchase cost; up to ${money(heldCents)} is counted as spent and this run buys nothing more.`,
		};
	}
	return { charged, notice: budget.settle(heldCents, charged, records) };
}

export function withCharge(records: IDataObject[], note: ChargeNote): IDataObject[] {
	return records.map((record) => ({ ...record, _charge: note }));
}

export function warn(context: IExecuteFunctions, message: string): void {
	context.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}

/** Refuses, before anything is sent, a purchase that n8n could repeat or whose Max Cost differs by item. */
export async function purchaseBudget(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndex: number,
): Promise<SpendBudget> {
	if (context.getNode().retryOnFail === true) {
		throw new NodeOperationError(
			context.getNode(),
			'Purchase refused: "Retry On Fail" is on for this node',
			{
				itemIndex,
				description:
					'n8n\'s Retry On Fail runs the whole node again after a failure, which would send a purchase that may already have been charged a second time. Nothing was sent and nothing was charged. Turn Retry On Fail off in this node\'s settings (the node itself repeats the requests that are safe to repeat), or use Charge Mode "Preview Cost (Free)".',
			},
		);
	}
	const budget = await spending.budget();
	const itemMaxCost = readMaxCost(context, itemIndex);
	if (itemMaxCost !== budget.maxCostCents) {
		throw new NodeOperationError(
			context.getNode(),
			`Max Cost: one value for the whole run; the item at index ${itemIndex} gives ${money(itemMaxCost)} where the first item gave ${money(budget.maxCostCents)}`,
			{
				itemIndex,
				description:
					'Max Cost caps the whole run, all items together, so it cannot change from item to item. Nothing was charged for this item. Use a fixed value, or an expression that gives the same value for every item.',
			},
		);
	}
	return budget;
}

/** Every item's purchase checks, before the whole run is quoted (docs/money.md, rule 2). */
export async function checkPurchases(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndexes: readonly number[],
): Promise<void> {
	for (const itemIndex of itemIndexes) await purchaseBudget(context, spending, itemIndex);
}

/** The whole run's quote against Max Cost and the ceiling: a run that does not fit buys nothing. */
export async function assertRunFits(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemCount: number,
	needCents: number,
): Promise<void> {
	const budget = await spending.budget();
	const refused = budget.refusalFor(
		needCents,
		`This run needs up to ${money(needCents)} for its ${itemCount} items (every record at full price, the run total of the preview)`,
	);
	if (refused)
		throw refusal(
			context,
			`${refused} Nothing was bought: every item was quoted (free) before buying, so that the run does not stop with only some items bought.`,
		);
}

/** A refusal by the budget; without `itemIndex` it is the whole run's. */
export function refusal(
	context: IExecuteFunctions,
	reason: string,
	itemIndex?: number,
): NodeOperationError {
	let message = `Purchase refused: over ${reason.includes('Spending Ceiling per Execution') ? "the credential's spending ceiling" : 'Max Cost'}`;
	if (reason.startsWith('This run buys nothing more')) {
		message = reason.includes('may have been charged')
			? 'Purchase refused: an earlier purchase of this run may have been charged'
			: 'Purchase refused: an earlier purchase of this run cost more than its quote';
	}
	return new NodeOperationError(context.getNode(), message, { itemIndex, description: reason });
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
		const lost = `The purchase was sent and may have been charged (up to ${money(held)}, totalCost ${JSON.stringify(response?.totalCost ?? null)}) for records that did not reach the output. This run buys nothing more: check the account's charges in PropRadar first.`;
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
