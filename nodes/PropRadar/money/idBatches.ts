import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';

import { toNodeError, type ApiEnvelope, type ApiRequest } from '../transport';
import type { RunSpending } from './budget';
import {
	formatCents,
	fullPriceCents,
	LIST_PRICES_CENTS,
	previewRecord,
	readQuote,
	requestQuote,
	revealedPriceCents,
	worstCaseCents,
} from './quote';
import type { PriceKind, Quote } from './quote';

// Properties read by PropID, many a request, through the property search's PropID criterion
// (docs/money.md, "Property > Get over many items"): free quotes find the PropIDs the service lacks,
// then each batch is bought once, only its PropIDs that exist, held at full price.

/** One request of distinct PropIDs, each charged once however many items name it. */
export interface IdBatch {
	ids: string[];
	/** The search request without its PropIDs (`idRequest` adds them, and `Limit`). */
	request: ApiRequest;
	/** The input item the batch's messages name (its first). */
	itemIndex: number;
}

/** What one PropID of a batch came to: its records (bought or a preview), or why it has none. */
export type IdOutcome = { records: IDataObject[] } | { error: IdFailure };

/** Why a PropID has no records (`idError`); an answer's failure keeps its HTTP code and body. */
export type IdFailure = { message: string; description?: string } & (
	{ httpCode?: undefined } | { httpCode: string; errorResponse: JsonObject }
);

export function failureOf(error: NodeApiError | NodeOperationError): IdFailure {
	const { message, description } = error;
	const said = description ? { message, description } : { message };
	return error instanceof NodeApiError && error.httpCode
		? { ...said, httpCode: error.httpCode, errorResponse: error.errorResponse ?? {} }
		: said;
}

export function idError(
	context: IExecuteFunctions,
	outcome: Extract<IdOutcome, { error: IdFailure }>,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const failure = outcome.error;
	const { message, description } = failure;
	return failure.httpCode
		? new NodeApiError(context.getNode(), failure.errorResponse, {
				message,
				description,
				httpCode: failure.httpCode,
				itemIndex,
			})
		: new NodeOperationError(context.getNode(), message, { description, itemIndex });
}

type Answer = { response: ApiEnvelope; quote: Quote };
type Ask = (ids: string[]) => Promise<Answer>;

/** A quote of PropIDs: `found` are those the service has, in the batch's order, all of them in `quote`. */
export type QuotedBatch = Answer & { found: string[] };

/** A run of batches once quoted: what `buyIdBatches` buys, and each PropID's outcome so far. */
export interface QuotedIdRun {
	kind: PriceKind;
	batches: IdBatch[];
	continueOnFail: boolean;
	purchasing: boolean;
	/** Undefined for a batch whose quote failed (with "On Error: Continue"). */
	quoted: Array<QuotedBatch | undefined>;
	outcomes: Array<Map<string, IdOutcome>>;
}

export function idRequest({ request }: IdBatch, ids: string[]): ApiRequest {
	return {
		...request,
		qs: { ...request.qs, Limit: ids.length },
		body: { Criteria: [{ name: 'PropID', value: ids }] },
	};
}

/** The free quote of some of a batch's PropIDs, asked for a preview or before a purchase. */
export function quoteIds(context: IExecuteFunctions, batch: IdBatch, purchasing: boolean): Ask {
	return async (ids) => {
		const request = idRequest(batch, ids);
		const response = await requestQuote(context, request, batch.itemIndex, purchasing);
		return { response, quote: readQuote(context, response, batch.itemIndex) };
	};
}

/** Records a page cut short left out of the quote's count are added at full price. */
export function counting(
	kind: PriceKind,
	{ response, quote }: Answer,
	found: string[],
): QuotedBatch {
	const uncounted = Math.max(0, found.length - quote.count);
	const cents = quote.cents + uncounted * fullPriceCents(kind, quote);
	return { response, quote: { ...quote, cents, count: found.length }, found };
}

// A quote counts the PropIDs it has without naming them: a batch whose count falls short is halved
// and its first half quoted again (free); the second half has the rest of the count.
async function foundIds(ask: Ask, ids: string[], count: number): Promise<string[]> {
	if (count <= 0) return [];
	if (count >= ids.length) return ids;
	const first = ids.slice(0, Math.ceil(ids.length / 2));
	const second = ids.slice(first.length);
	const { quote } = await ask(first);
	const inFirst = Math.min(quote.count, first.length);
	return [
		...(await foundIds(ask, first, inFirst)),
		...(await foundIds(ask, second, count - inFirst)),
	];
}

async function quoteBatch(kind: PriceKind, { ids }: IdBatch, ask: Ask): Promise<QuotedBatch> {
	const answer = await ask(ids);
	const { quote } = answer;
	const found = new Set(await foundIds(ask, ids, quote.count));
	// A page cut short (a total above the count, or no total) counts fewer than exist: the PropIDs
	// not found are asked again, in a further quote, until one finds none of them.
	let missing = ids.filter((id) => !found.has(id));
	while (missing.length > 0 && quote.totalResultCount !== quote.count) {
		const again = await ask(missing);
		const more = await foundIds(ask, missing, again.quote.count);
		if (more.length === 0) break;
		for (const id of more) found.add(id);
		missing = missing.filter((id) => !found.has(id));
	}
	const inOrder = ids.filter((id) => found.has(id));
	return counting(kind, answer, inOrder);
}

/** One PropID's preview, as a quote of that one record would give it; the price is the batch's. */
function previewOf(kind: PriceKind, { response, quote }: QuotedBatch, propId: string): IDataObject {
	const full = fullPriceCents(kind, quote);
	const itemCents =
		(quote.freeRemaining ?? 0) > 0
			? 0
			: (revealedPriceCents(kind, quote) ?? LIST_PRICES_CENTS[kind]);
	const one = { ...quote, cents: itemCents, count: 1 };
	return {
		...previewRecord(kind, response, one, { PropID: propId }, full),
		// The full price the batch's quote shows, which a quote of one free record cannot.
		pricePerRecord: formatCents(full),
	};
}

function notFound(batch: IdBatch, id: string): IdOutcome {
	return {
		error: {
			message: `Property ${id} does not exist or belongs to another account`,
			description: `PropRadar's read of ${batch.ids.length === 1 ? 'it' : `${batch.ids.length} properties`} by PropID in one request returned none for "${id}", so nothing was bought or charged for it. Check the ID of property ${id} and that the credential belongs to the account that owns it.`,
			httpCode: '404',
			errorResponse: { PropID: id, resultCount: 0 },
		},
	};
}

/** Every batch quoted, free; a purchase run checked whole before anything is bought (docs/money.md, rule 2). */
export async function quoteIdBatches(
	context: IExecuteFunctions,
	spending: RunSpending,
	options: {
		kind: PriceKind;
		/** The items it reads for (not those Skip Records Bought Before leaves out). */
		itemIndexes: readonly number[];
		batches: IdBatch[];
		continueOnFail: boolean;
	},
): Promise<QuotedIdRun> {
	const { kind, itemIndexes, batches, continueOnFail } = options;
	const purchasing = await spending.purchasesWhole(itemIndexes);
	const outcomes = batches.map(() => new Map<string, IdOutcome>());
	// Every batch's quote travels at once; read in batch order, so a run stops on the first batch's
	// failure unless "On Error: Continue".
	const settled = await Promise.allSettled(
		batches.map((batch) => quoteBatch(kind, batch, quoteIds(context, batch, purchasing))),
	);
	const quoted = settled.map((result, index) => {
		if (result.status === 'fulfilled') return result.value;
		const batch = batches[index];
		const nodeError = toNodeError(context.getNode(), result.reason, batch.itemIndex);
		if (!continueOnFail) throw nodeError;
		for (const id of batch.ids) outcomes[index].set(id, { error: failureOf(nodeError) });
		return undefined;
	});
	if (purchasing) {
		const needCents = quoted.reduce(
			(sum, batch) => sum + (batch ? worstCaseCents(kind, batch.quote) : 0),
			0,
		);
		await spending.assertFits(itemIndexes.length, needCents);
	}
	batches.forEach((batch, index) => {
		const asked = quoted[index];
		if (!asked) return;
		const found = new Set(asked.found);
		for (const id of batch.ids) if (!found.has(id)) outcomes[index].set(id, notFound(batch, id));
		if (!purchasing)
			for (const id of asked.found)
				outcomes[index].set(id, { records: [previewOf(kind, asked, id)] });
	});
	return { kind, batches, continueOnFail, purchasing, quoted, outcomes };
}
