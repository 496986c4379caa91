import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, toNodeError, type ApiEnvelope, type ApiRequest } from '../transport';

// Money is counted in integer cents and written as the API writes it ("12.34").

/** Cents per charged record once free credits are gone: the node's assumption, the documents give no prices (docs/money.md). */
export const LIST_PRICES_CENTS = {
	property: 10,
	/** Evictions, comps, parcels, transactions (per call that returns data). */
	propertyDetail: 25,
	/** Person > Get Owners (per owner returned). */
	person: 15,
	/** Bankruptcies, divorces, liens, probates, relatives (per record returned). */
	personRecord: 20,
	phone: 40,
	email: 30,
	importRecord: 5,
} as const;

export type PriceKind = keyof typeof LIST_PRICES_CENTS;

/** The property details are charged once per call that returns data, whatever its number of records. */
export function recordsCharged(kind: PriceKind, records: number): number {
	return kind === 'propertyDetail' ? Math.min(records, 1) : records;
}

// Integer cents, or undefined for anything but a non-negative amount with at most two decimals:
// money code refuses what is unreadable, never reads it as $0 (docs/money.md, rule 5).
export function readCents(amount: unknown): number | undefined {
	if (typeof amount === 'string') {
		const text = amount.trim();
		if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) return undefined;
		const [units, decimals = ''] = text.split('.');
		return Number(units) * 100 + Number(decimals.padEnd(2, '0'));
	}
	if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return undefined;
	const cents = Math.round(amount * 100);
	return Math.abs(cents - amount * 100) < 1e-6 && cents <= Number.MAX_SAFE_INTEGER
		? cents
		: undefined;
}

export function formatCents(cents: number): string {
	return (cents / 100).toFixed(2);
}

/** An amount a preview gives, in cents; 0 when it gives none. */
export const cents = (value: unknown) => readCents(value) ?? 0;

/** An amount as the node's messages say it: "$12.34". */
export const money = (cents: number) => `$${formatCents(cents)}`;

/** A quote (`Purchase=0`) as numbers; a quote that cannot be read refuses the purchase. */
export interface Quote {
	cents: number;
	count: number;
	freeRemaining?: number;
	totalResultCount?: number;
}

export function readQuote(
	context: IExecuteFunctions,
	response: ApiEnvelope,
	itemIndex: number,
): Quote {
	const cents = readCents(response?.totalCost);
	const count = response?.resultCount;
	if (cents === undefined || typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
		throw new NodeOperationError(context.getNode(), "PropRadar's quote could not be read", {
			itemIndex,
			description: `The free quote (Purchase=0) came back without a readable totalCost and resultCount (totalCost ${JSON.stringify(response?.totalCost ?? null)}, resultCount ${JSON.stringify(count ?? null)}), so nothing was bought and nothing was charged.`,
		});
	}
	const free = response.quantityFreeRemaining;
	return {
		cents,
		count,
		freeRemaining:
			typeof free === 'number' && Number.isInteger(free) && free >= 0 ? free : undefined,
		totalResultCount:
			typeof response.totalResultCount === 'number' ? response.totalResultCount : undefined,
	};
}

/** The price of one record a quote reveals when it covers more records than free credits pay for. */
export function revealedPriceCents(kind: PriceKind, quote: Quote): number | undefined {
	const paid = recordsCharged(kind, quote.count) - (quote.freeRemaining ?? 0);
	return paid > 0 ? Math.ceil(quote.cents / paid) : undefined;
}

export function fullPriceCents(kind: PriceKind, quote: Quote): number {
	return Math.max(LIST_PRICES_CENTS[kind], revealedPriceCents(kind, quote) ?? 0);
}

/** The most a purchase of what `quote` covers can cost: every record at full price. */
export function worstCaseCents(kind: PriceKind, quote: Quote): number {
	return Math.max(quote.cents, recordsCharged(kind, quote.count) * fullPriceCents(kind, quote));
}

export async function requestQuote(
	context: IExecuteFunctions,
	request: ApiRequest,
	itemIndex: number,
	purchasing: boolean,
): Promise<ApiEnvelope> {
	try {
		return await apiRequest<ApiEnvelope>(context, {
			...request,
			qs: { ...request.qs, Purchase: 0 },
			repeatable: true,
			itemIndex,
		});
	} catch (error) {
		const nodeError = toNodeError(context.getNode(), error, itemIndex);
		if (purchasing)
			nodeError.description =
				`${nodeError.description ?? ''} This was the free quote before the purchase: the purchase was not sent, and nothing was bought or charged for it.`.trim();
		throw nodeError;
	}
}

export function previewRecord(
	kind: PriceKind,
	response: ApiEnvelope,
	quote: Quote,
	extra: IDataObject,
	heldCents = worstCaseCents(kind, quote),
): IDataObject {
	return {
		...extra,
		preview: true,
		totalCost: formatCents(quote.cents),
		resultCount: quote.count,
		quantityFreeRemaining: response.quantityFreeRemaining,
		maxCostNeeded: formatCents(heldCents),
		pricePerRecord: formatCents(fullPriceCents(kind, quote)),
	};
}
