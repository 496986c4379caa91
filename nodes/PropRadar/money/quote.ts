import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiEnvelope, ApiRequest } from '../transport';
import { apiRequest, toNodeError } from '../transport';
import { formatCents, readCents } from './cents';
import { LIST_PRICES_CENTS, recordsCharged, type PriceKind } from './prices';

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
			description:
				`The free quote (Purchase=0) came back without a readable totalCost and ` +
				`resultCount (totalCost ${JSON.stringify(response?.totalCost ?? null)}, ` +
				`resultCount ${JSON.stringify(count ?? null)}), so nothing was bought and ` +
				`nothing was charged.`,
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
			nodeError.description = (
				`${nodeError.description ?? ''} This was the free quote before ` +
				`the purchase: the purchase was not sent, and nothing was ` +
				`bought or charged for it.`
			).trim();
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
