import type { IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiRequest } from '../transport';
import {
	readBoughtBefore,
	recordBought,
	skipBoughtBefore,
	type BoughtBefore,
	type Skipping,
} from './boughtBefore';
import { RunSpending } from './budget';
import { warn } from './chargeNote';
import { cents } from './cents';
import { StoppedAfterBuying } from './pages';
import type { PriceKind } from './prices';
import { buy, type Bought } from './purchase';
import type { Quote } from './quote';
import { assertRunFits, checkPurchases } from './refusal';
import {
	carryOutput,
	chargeStatement,
	failureCharge,
	previewRunTotal,
	purchaseWithoutCredits,
	spentSoFar,
} from './statements';

/**
 * The money of one node run (docs/money.md): its budget, and the service the router and the
 * operations call. An operation asks for a quote (`quoteItem`), then buys (`buy`), or hands over
 * a paged, batched or by-ID purchase whole; money never calls back into an operation.
 */
export class RunMoney extends RunSpending {
	get nothingCharged(): boolean {
		return this.spentCents === 0;
	}

	// An item's purchase.

	/** One `Purchase=1` request for what `quote` counted, held at full price. */
	async buy(
		itemIndex: number,
		kind: PriceKind,
		request: ApiRequest,
		quote: Quote,
	): Promise<Bought> {
		const budget = await this.budget();
		const bought = await buy(this.context, budget, kind, quote, request, itemIndex);
		if (bought.note.notice) warn(this.context, bought.note.notice);
		return bought;
	}

	/** An import that stopped after importing records carries the output in its error. */
	stoppedImport<E extends NodeApiError | NodeOperationError>(error: E, output: IDataObject[]): E {
		const { bought } = this;
		if (bought === 0) return error;
		const stopped = `The import stopped after ${bought} records were imported (${spentSoFar(this)}).`;
		return carryOutput(error, stopped, output);
	}

	// The run, as the router asks for it.

	/** Skip Records Bought Before, when it is on and the run purchases. */
	boughtBefore(operation: string): BoughtBefore | undefined {
		return readBoughtBefore(this.context, operation);
	}

	/** The items Skip Records Bought Before leaves out, from every item's key. */
	async skipBoughtBefore(
		ledger: BoughtBefore,
		keyName: 'PropID' | 'PersonKey',
		keys: Map<number, string>,
		itemCount: number,
	): Promise<Skipping> {
		return skipBoughtBefore(this.context, ledger, keyName, keys, itemCount);
	}

	/** Records, for Skip Records Bought Before, the items whose purchase reached the output. */
	async recordBought(skip: Skipping, itemIndexes: number[]): Promise<void> {
		const keys = itemIndexes.flatMap((itemIndex) => skip.keys.get(itemIndex) ?? []);
		await recordBought(this.context, skip.ledger, keys);
	}

	/** A purchase of several items: every item's checks, before the whole run is quoted. */
	async checkPurchases(itemIndexes: readonly number[]): Promise<void> {
		await checkPurchases(this.context, this, itemIndexes);
	}

	/** The whole run's previews against Max Cost and the ceiling (docs/money.md, rule 2). */
	async assertRunFits(itemCount: number, previews: IDataObject[]): Promise<void> {
		const needCents = previews.reduce(
			(sum, record) => (record.preview === true ? sum + cents(record.maxCostNeeded) : sum),
			0,
		);
		await assertRunFits(this.context, this, itemCount, needCents);
	}

	/** The `_charge` of an item that failed in a purchase run. */
	failureCharge(error: unknown): IDataObject {
		return failureCharge(this, error);
	}

	/** What a failed item had bought before it failed (a paged purchase stopped part-way). */
	boughtBeforeFailing(error: unknown): IDataObject[] {
		return error instanceof StoppedAfterBuying ? error.bought : [];
	}

	/**
	 * The error a run throws when an item failed without "On Error: Continue": as it is when the
	 * run bought nothing, else carrying the run's output (docs/money.md, rule 6).
	 */
	stoppedRun<E extends NodeApiError | NodeOperationError>(
		nodeError: E,
		failedAt: number,
		how: { readAhead: boolean; concurrent: boolean },
		output: () => IDataObject[],
	): E {
		const { bought } = this;
		if (bought === 0) return nodeError;
		const spent = spentSoFar(this);
		const stopped = how.readAhead
			? `The item at index ${failedAt} failed; the run bought ${bought} records ` +
				`(${spent}) in requests of many items, all made before any item's output.`
			: `The run stopped at the item at index ${failedAt} after buying ${bought} ` +
				`records (${spent}); the items after it were not ` +
				`processed${how.concurrent ? ', except those already under way' : ''}.`;
		return carryOutput(nodeError, stopped, output());
	}

	/** The hints above a finished run's output: a preview's run total, or what free credits paid. */
	finished(chargeMode: string, output: IDataObject[], counted: 'quotes' | 'items'): void {
		if (chargeMode === 'preview') previewRunTotal(this.context, output, counted);
		if (chargeMode === 'purchase') purchaseWithoutCredits(this.context, this);
	}

	/** What happened to the money in a tool call, said once the run is over. */
	statement(): string {
		return chargeStatement(this);
	}
}
