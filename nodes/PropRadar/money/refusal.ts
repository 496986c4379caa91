import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readMaxCost, type RunSpending, type SpendBudget } from './budget';
import { money } from './cents';

// What refuses a purchase before it is sent, shared by every shape of purchase (one request,
// pages, batches, IDs in batches).

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
		`This run needs up to ${money(needCents)} for its ${itemCount} items (every record ` +
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
