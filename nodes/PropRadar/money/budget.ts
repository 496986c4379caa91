import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { getConnection } from '../transport';
import { ceilingTally, readCeiling, Tally } from './ceiling';
import { chargeMode } from './properties';
import { parameter } from '../shared/parameters';
import { money, readCents } from './quote';

function readMaxCost(context: IExecuteFunctions, itemIndex: number): number {
	const raw = parameter(context, 'maxCost', itemIndex, 0);
	const cents = readCents(typeof raw === 'string' && raw.trim() === '' ? 0 : raw);
	if (cents === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`Max Cost: must be an amount in USD, 0 or more with at most two decimals (such as 2.50), got "${String(raw)}"`,
			{
				itemIndex,
				description: 'Nothing was sent and nothing was charged.',
			},
		);
	}
	return cents;
}

/** Max Cost bounds this run; the ceiling's tally is shared with every other run of the execution. */
export class SpendBudget {
	private readonly run: Tally;
	private stopReason: string | undefined;
	/** Records the run bought and handed on: they must reach the output whatever happens later. */
	bought = 0;
	/** The part of `spent` that may or may not have been charged. */
	unconfirmedCents = 0;
	/** What the records bought would have cost at full price, free export credits aside. */
	atFullPriceCents = 0;

	constructor(
		maxCostCents: number,
		private readonly ceiling?: Tally,
	) {
		this.run = new Tally(maxCostCents);
	}

	get maxCostCents(): number {
		return this.run.capCents;
	}

	/** What the run was charged, or may have been (purchases whose outcome is unknown count in full). */
	get spent(): number {
		return this.run.spentCents;
	}

	private get tallies(): Tally[] {
		return this.ceiling ? [this.run, this.ceiling] : [this.run];
	}

	refusalFor(cents: number, needs: string): string | undefined {
		if (this.stopReason)
			return `This run buys nothing more: ${this.stopReason} Nothing was charged for this item.`;
		if (this.ceiling && cents > this.ceiling.leftCents) {
			return `${needs}, and the PropRadar credential's Spending Ceiling per Execution ${this.ceiling.describe()} in this execution. Nothing was charged. The ceiling is set by the credential's owner; ask them to raise it, or buy fewer records.`;
		}
		if (cents > this.run.leftCents) {
			return `${needs}, and Max Cost ${this.run.describe()} for this run. Nothing was charged. Set Max Cost to at least ${money(this.run.capCents - this.run.leftCents + cents)}, or buy fewer records.`;
		}
		return undefined;
	}

	hold(cents: number): string | undefined {
		const refused = this.refusalFor(
			cents,
			`This purchase needs up to ${money(cents)} (every record at full price)`,
		);
		if (refused) return refused;
		for (const tally of this.tallies) tally.heldCents += cents;
		return undefined;
	}

	/** A purchase went through: what was held for it becomes what it really cost. */
	settle(heldCents: number, chargedCents: number, records: number): string | undefined {
		for (const tally of this.tallies) {
			tally.heldCents -= heldCents;
			tally.spentCents += chargedCents;
			tally.keepSpent?.();
		}
		this.bought += records;
		if (chargedCents > heldCents) {
			this.stopReason = `a purchase cost ${money(chargedCents)}, more than the ${money(heldCents)} its quote allowed for.`;
			return `PropRadar charged ${money(chargedCents)} for a purchase quoted at up to ${money(heldCents)}; this run buys nothing more.`;
		}
		return undefined;
	}

	/** The service refused the purchase: nothing was charged. */
	release(heldCents: number): void {
		for (const tally of this.tallies) tally.heldCents -= heldCents;
	}

	/** Whether the run buys nothing more (a purchase may have been charged, or cost more than held). */
	get stopped(): boolean {
		return this.stopReason !== undefined;
	}

	stopBuying(reason: string): void {
		this.stopReason ??= reason;
	}

	/** The purchase may have been charged: what was held for it counts as spent, and the run stops buying. */
	keepUnconfirmed(heldCents: number, what: string): void {
		this.settle(heldCents, heldCents, 0);
		this.unconfirmedCents += heldCents;
		this.stopReason = `${what} may have been charged (up to ${money(heldCents)}), so nothing more is bought until that is checked.`;
	}
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

/** What the items of one node run share; the budget is made when the first purchase needs it. */
export class RunSpending {
	private budgetPromise: Promise<SpendBudget> | undefined;
	/** What the run's budget counts; until a purchase makes it, a budget that bought nothing. */
	protected counted = new SpendBudget(0);

	constructor(protected readonly context: IExecuteFunctions) {}

	budget(): Promise<SpendBudget> {
		this.budgetPromise ??= this.makeBudget().then((budget) => (this.counted = budget));
		return this.budgetPromise;
	}

	private async makeBudget(): Promise<SpendBudget> {
		const maxCostCents = readMaxCost(this.context, 0);
		const ceiling = (await getConnection(this.context)).spendingCeiling;
		const ceilingCents = readCeiling(this.context, ceiling);
		return new SpendBudget(
			maxCostCents,
			ceilingCents === undefined ? undefined : ceilingTally(this.context, ceilingCents),
		);
	}

	/** Refuses, before anything is sent, a purchase that n8n could repeat or whose Max Cost differs by item. */
	async purchaseBudget(itemIndex: number): Promise<SpendBudget> {
		const node = this.context.getNode();
		if (node.retryOnFail === true) {
			throw new NodeOperationError(node, 'Purchase refused: "Retry On Fail" is on for this node', {
				itemIndex,
				description:
					'n8n\'s Retry On Fail runs the whole node again after a failure, which would send a purchase that may already have been charged a second time. Nothing was sent and nothing was charged. Turn Retry On Fail off in this node\'s settings (the node itself repeats the requests that are safe to repeat), or use Charge Mode "Preview Cost (Free)".',
			});
		}
		const budget = await this.budget();
		const itemMaxCost = readMaxCost(this.context, itemIndex);
		if (itemMaxCost !== budget.maxCostCents) {
			throw new NodeOperationError(
				node,
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
	async checkPurchases(itemIndexes: readonly number[]): Promise<void> {
		for (const itemIndex of itemIndexes) await this.purchaseBudget(itemIndex);
	}

	/** Whether an operation that takes every item at once purchases: every item checked first. */
	async purchasesWhole(itemIndexes: readonly number[]): Promise<boolean> {
		// Never part of the whole run's quote: such an operation quotes the whole run itself.
		if (chargeMode(this.context, 'charge', 0) !== 'purchase') return false;
		await this.checkPurchases(itemIndexes);
		return true;
	}

	/** The whole run's quote against Max Cost and the ceiling: a run that does not fit buys nothing. */
	async assertFits(itemCount: number, needCents: number): Promise<void> {
		const refused = (await this.budget()).refusalFor(
			needCents,
			`This run needs up to ${money(needCents)} for its ${itemCount} items (every record at full price, the run total of the preview)`,
		);
		if (refused)
			throw refusal(
				this.context,
				`${refused} Nothing was bought: every item was quoted (free) before buying, so that the run does not stop with only some items bought.`,
			);
	}
}
