import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiEnvelope, ApiRequest } from '../transport';
import {
	apiRequest,
	chargedNothing,
	formatCents,
	markMayHaveCharged,
	readCents,
	toNodeError,
} from '../transport';
import { readMaxCost, type RunSpending, type SpendBudget } from './budget';
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
import { money } from './tally';

export interface ChargeNote extends IDataObject {
	/** What the purchase (one request) the record came from cost, and how many records it charged. */
	totalCost: string;
	resultCount: number;
	runTotalCost: string;
	/** Set when the run stopped buying before it had everything that was asked for. */
	notice?: string;
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
					"n8n's Retry On Fail runs the whole node again after a failure, which " +
					'would send a purchase that may already have been charged a second ' +
					'time. Nothing was sent and nothing was charged. Turn Retry On Fail ' +
					"off in this node's settings (the node itself repeats the requests " +
					'that are safe to repeat), or use Charge Mode "Preview Cost (Free)".',
			},
		);
	}
	const budget = await spending.budget();
	const itemMaxCost = readMaxCost(context, itemIndex);
	if (itemMaxCost !== budget.maxCostCents) {
		throw new NodeOperationError(
			context.getNode(),
			`Max Cost: one value for the whole run; the item at index ${itemIndex} gives ` +
				`${money(itemMaxCost)} where the first item gave ${money(budget.maxCostCents)}`,
			{
				itemIndex,
				description:
					'Max Cost caps the whole run, all items together, so it cannot change ' +
					'from item to item. Nothing was charged for this item. Use a fixed ' +
					'value, or an expression that gives the same value for every item.',
			},
		);
	}
	return budget;
}

/** The whole run (the items it buys for: not those Skip Records Bought Before leaves out) quoted before anything is bought, so that it never stops part-way for want of budget (docs/money.md, rule 2). */
export async function assertWholeRunFits(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndexes: readonly number[],
	quoteRun: () => Promise<number>,
): Promise<void> {
	for (const itemIndex of itemIndexes) await purchaseBudget(context, spending, itemIndex);
	const needCents = await quoteRun();
	const budget = await spending.budget();
	const refused = budget.refusalFor(
		needCents,
		`This run needs up to ${money(needCents)} for its ${itemIndexes.length} items (every record ` +
			`at full price, the run total of the preview)`,
	);
	if (refused)
		throw refusal(
			context,
			`${refused} Nothing was bought: every item was quoted (free) before buying, so ` +
				`that the run does not stop with only some items bought.`,
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
			notice:
				`PropRadar's answer did not say what this purchase cost; up to ` +
				`${money(heldCents)} is counted as spent and this run buys nothing more.`,
		};
	}
	return { charged, notice: budget.settle(heldCents, charged, records) };
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

export function withCharge(records: IDataObject[], note: ChargeNote): IDataObject[] {
	return records.map((record) => ({ ...record, _charge: note }));
}

export function warn(context: IExecuteFunctions, message: string): void {
	context.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
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

export async function chargedRecords(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndex: number,
	pass: ChargePass,
	kind: PriceKind,
	request: ApiRequest,
	previewExtra: IDataObject = {},
): Promise<IDataObject[]> {
	const { response, preview, note } = await chargedRequest(
		context,
		spending,
		itemIndex,
		pass,
		kind,
		request,
	);
	if (preview) return [{ ...previewExtra, ...preview }];
	return withCharge(response.results ?? [], note!);
}
