import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiEnvelope, ApiRequest } from '../transport';
import { apiRequest, formatCents, getConnection, toCents, toNodeError } from '../transport';

/**
 * The one home of money (DESIGN.md section 3). Every charging operation offers "Preview Cost
 * (Free)" or "Purchase" with a Max Cost for the whole node run; a purchase is quoted first with
 * `Purchase=0` and refused, with nothing charged, when the quote does not fit what is left of the
 * cap or of the credential's spending ceiling. A purchase is never retried.
 */
export type ChargeMode = 'preview' | 'purchase';

export const RETRY_NOTICE =
	'Purchases are charged and non-refundable. This node never repeats a purchase itself; leave "Retry On Fail" off in the node settings, because it would send the purchase again.';

export function chargeProperties(show: Record<string, string[]>, what: string): INodeProperties[] {
	return [
		{
			displayName: 'Charge Mode',
			name: 'chargeMode',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show },
			options: [
				{
					name: 'Preview Cost (Free)',
					value: 'preview',
					description: `Ask what ${what} would cost. Nothing is bought or charged; the output is one item with the quote.`,
				},
				{
					name: 'Purchase',
					value: 'purchase',
					description: `Buy ${what}, charged per record and non-refundable, up to Max Cost`,
				},
			],
			default: 'preview',
		},
		{
			displayName: 'Max Cost (USD)',
			name: 'maxCost',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			displayOptions: { show: { ...show, chargeMode: ['purchase'] } },
			default: 0,
			description:
				'Most this node may spend in one run, all input items together. Each purchase is quoted first for free; one whose quote does not fit in what is left is refused and nothing is charged. 0 allows only what free export credits cover.',
		},
		{
			displayName: RETRY_NOTICE,
			name: 'purchaseNotice',
			type: 'notice',
			displayOptions: { show: { ...show, chargeMode: ['purchase'] } },
			default: '',
		},
	];
}

/** What one node run may still spend: the node's Max Cost, bounded by the credential's ceiling. */
export class SpendBudget {
	private spentCents = 0;

	private reservedCents = 0;

	constructor(
		readonly capCents: number,
		readonly source: 'Max Cost' | 'the credential\'s spending ceiling',
	) {}

	get leftCents(): number {
		return this.capCents - this.spentCents - this.reservedCents;
	}

	get spent(): number {
		return this.spentCents;
	}

	/** Sets `cents` aside for a purchase, or explains why it does not fit. Synchronous, so concurrent items cannot both take the last of the cap. */
	tryReserve(cents: number): string | undefined {
		if (cents <= this.leftCents) {
			this.reservedCents += cents;
			return undefined;
		}
		return `The quote is $${formatCents(cents)}, but ${this.source} for this run is $${formatCents(this.capCents)} and $${formatCents(this.capCents - this.leftCents)} of it is already spent or set aside. Nothing was charged.`;
	}

	/** A purchase went through: the reservation becomes what was really charged. */
	settle(reservedCents: number, chargedCents: number): void {
		this.reservedCents -= reservedCents;
		this.spentCents += chargedCents;
	}

	/** The service refused the purchase, so nothing was charged. */
	release(reservedCents: number): void {
		this.reservedCents -= reservedCents;
	}
}

/** Builds the budget of a node run from the node's Max Cost (read at the first item) and the credential. */
export async function createSpendBudget(context: IExecuteFunctions): Promise<SpendBudget> {
	const maxCostCents = Math.round((context.getNodeParameter('maxCost', 0, 0) as number) * 100);
	const { spendingCeilingCents } = await getConnection(context);
	if (spendingCeilingCents > 0 && spendingCeilingCents < maxCostCents) {
		return new SpendBudget(spendingCeilingCents, 'the credential\'s spending ceiling');
	}
	return new SpendBudget(maxCostCents, 'Max Cost');
}

export interface ChargeOutcome<T> {
	mode: ChargeMode;
	/** The answer of the purchase, or of the preview. */
	response: ApiEnvelope<T>;
}

/** The quote of a preview as one output record. */
export function quoteRecord(response: ApiEnvelope, extra: IDataObject = {}): IDataObject {
	return {
		...extra,
		preview: true,
		totalCost: response.totalCost ?? '0.00',
		resultCount: response.resultCount ?? 0,
		quantityFreeRemaining: response.quantityFreeRemaining,
	};
}

/**
 * Sends a charging request the way the user chose: a preview (`Purchase=0`) only, or a quote
 * followed by the purchase (`Purchase=1`, sent once, never retried) when the quote fits the budget.
 */
export async function chargedRequest<T = IDataObject>(
	context: IExecuteFunctions,
	budget: () => Promise<SpendBudget>,
	itemIndex: number,
	request: ApiRequest,
): Promise<ChargeOutcome<T>> {
	const mode = context.getNodeParameter('chargeMode', itemIndex) as ChargeMode;
	const quote = await apiRequest<ApiEnvelope<T>>(context, {
		...request,
		qs: { ...request.qs, Purchase: 0 },
		repeatable: true,
		itemIndex,
	});
	if (mode === 'preview') return { mode, response: quote };
	const spend = await budget();
	const quotedCents = toCents(quote.totalCost);
	const refusal = spend.tryReserve(quotedCents);
	if (refusal) {
		throw new NodeOperationError(context.getNode(), 'Purchase refused: over the spending cap', {
			description: `${refusal} Raise Max Cost, or use Preview Cost (Free) to see the cost first.`,
			itemIndex,
		});
	}
	try {
		const bought = await apiRequest<ApiEnvelope<T>>(context, {
			...request,
			qs: { ...request.qs, Purchase: 1 },
			repeatable: false,
			itemIndex,
		});
		spend.settle(quotedCents, toCents(bought.totalCost));
		return { mode, response: bought };
	} catch (error) {
		// The service answered with an error: nothing was charged. A lost connection keeps the
		// reservation, since the charge may have happened.
		if (error instanceof NodeApiError && error.httpCode && /^\d+$/.test(error.httpCode)) spend.release(quotedCents);
		throw toNodeError(context.getNode(), error, itemIndex);
	}
}

/**
 * A charging read as output records: the quote as one item in preview mode, the bought records in
 * purchase mode.
 */
export async function chargedRecords(
	context: IExecuteFunctions,
	budget: () => Promise<SpendBudget>,
	itemIndex: number,
	request: ApiRequest,
	quoteExtra: IDataObject = {},
): Promise<IDataObject[]> {
	const { mode, response } = await chargedRequest(context, budget, itemIndex, request);
	if (mode === 'preview') return [quoteRecord(response, quoteExtra)];
	return response.results ?? [];
}
