import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiEnvelope, ApiRequest } from '../transport';
import { toNodeError } from '../transport';
import { formatCents } from './cents';
import type { RunSpending, SpendBudget } from './budget';
import { LIST_PRICES_CENTS, type PriceKind } from './prices';
import { chargeMode } from './properties';
import { warn, withCharge, type ChargeNote } from './chargeNote';
import { buy } from './purchase';
import { assertWholeRunFits } from './refusal';
import {
	fullPriceCents,
	previewRecord,
	readQuote,
	requestQuote,
	revealedPriceCents,
	worstCaseCents,
	type Quote,
} from './quote';

/**
 * Records read by ID, many IDs a request (Property > Get through the search's PropID criterion):
 * one batch is one request of distinct IDs, each charged once however many items name it.
 */
export interface IdBatch {
	ids: string[];
	/** The request that reads `ids` (without `Purchase`); its `Limit` is the number of IDs. */
	request(ids: string[]): ApiRequest;
	/** The input item the batch's messages name (its first). */
	itemIndex: number;
}

/** What one ID of a batch came to: its records (bought or a preview), or why it has none. */
export type IdOutcome = { records: IDataObject[] } | { error: IdFailure };

/** Why an ID has no records, as the error of each item naming it says (`idError`). */
export interface IdFailure {
	message: string;
	description?: string;
	httpCode?: string;
}

const failureOf = (error: NodeApiError | NodeOperationError): IdFailure => ({
	message: error.message,
	...(error.description ? { description: error.description } : {}),
	...((error as NodeApiError).httpCode ? { httpCode: (error as NodeApiError).httpCode! } : {}),
});

interface QuotedBatch {
	response: ApiEnvelope;
	quote: Quote;
	/** The IDs the service has, in the batch's order. */
	found: string[];
}

/**
 * The IDs of `ids` the service has: a quote counts them without naming them, so a batch whose
 * count falls short is halved and its first half quoted again (free); the second half has the
 * rest of the count. About one quote per missing ID and halving, none when every ID exists.
 */
async function foundIds(
	context: IExecuteFunctions,
	batch: IdBatch,
	ids: string[],
	count: number,
	purchasing: boolean,
): Promise<string[]> {
	if (count <= 0) return [];
	if (count >= ids.length) return ids;
	const first = ids.slice(0, Math.ceil(ids.length / 2));
	const second = ids.slice(first.length);
	const response = await requestQuote(context, batch.request(first), batch.itemIndex, purchasing);
	const inFirst = Math.min(readQuote(context, response, batch.itemIndex).count, first.length);
	return [
		...(await foundIds(context, batch, first, inFirst, purchasing)),
		...(await foundIds(context, batch, second, count - inFirst, purchasing)),
	];
}

async function quoteBatch(
	context: IExecuteFunctions,
	batch: IdBatch,
	purchasing: boolean,
): Promise<QuotedBatch> {
	const response = await requestQuote(
		context,
		batch.request(batch.ids),
		batch.itemIndex,
		purchasing,
	);
	const quote = readQuote(context, response, batch.itemIndex);
	const found = await foundIds(context, batch, batch.ids, quote.count, purchasing);
	return { response, quote, found };
}

/** The quote of the batch's records the service has: what is held for them, and what the purchase asks for. */
const foundQuote = ({ quote, found }: QuotedBatch): Quote => ({ ...quote, count: found.length });

/** One ID's preview, as a quote of that one record would give it; the price is the batch's. */
function previewOf(kind: PriceKind, quoted: QuotedBatch, extra: IDataObject): IDataObject {
	const { quote, response } = quoted;
	const full = fullPriceCents(kind, foundQuote(quoted));
	const itemCents =
		(quote.freeRemaining ?? 0) > 0
			? 0
			: (revealedPriceCents(kind, foundQuote(quoted)) ?? LIST_PRICES_CENTS[kind]);
	return {
		...previewRecord(kind, response, { ...quote, cents: itemCents, count: 1 }, extra, full),
		// The full price the batch's quote shows, which a quote of one free record cannot.
		pricePerRecord: formatCents(full),
	};
}

function notFound(batch: IdBatch, id: string, subject: string): IdOutcome {
	const named = `${subject.charAt(0).toLowerCase()}${subject.slice(1)}`;
	return {
		error: {
			message: `${subject} does not exist or belongs to another account`,
			description:
				`PropRadar's read of ${batch.ids.length === 1 ? 'it' : `${batch.ids.length} properties`} ` +
				`by PropID in one request returned none for "${id}", so nothing was bought or ` +
				`charged for it. Check the ID of ${named} and that the credential belongs to the ` +
				`account that owns it.`,
			httpCode: '404',
		},
	};
}

/** What the IDs of a batch not sent come to. */
const notSent = (why: string): IdOutcome => ({
	error: {
		message: why,
		description: 'Its purchase was not sent: nothing was bought or charged for this item.',
	},
});

/**
 * Preview or purchase of every batch (docs/money.md, "Property > Get over many items"): every batch
 * quoted first, free, which also finds the IDs the service does not have; in Purchase mode the
 * whole run is checked against Max Cost and the ceiling before anything is bought, then each
 * batch bought once, only its IDs that exist, with `Limit` their count, held at full price.
 * `refuseFirst` is called once the quotes are in and before anything is bought: it throws when an
 * item's failure must end the run (without "On Error: Continue"), which then buys nothing after a
 * failed batch either; a quote that fails then ends the run too, before anything is bought.
 */
export async function chargedIdBatches(
	context: IExecuteFunctions,
	spending: RunSpending,
	{
		kind,
		itemIndexes,
		batches,
		subject,
		extra,
		continueOnFail,
		refuseFirst,
	}: {
		kind: PriceKind;
		/** The items it reads for (not those Skip Records Bought Before leaves out). */
		itemIndexes: readonly number[];
		batches: IdBatch[];
		/** As a person names one record: "Property P000123". */
		subject: (id: string) => string;
		/** Fields a preview of an ID carries besides the quote (its PropID). */
		extra: (id: string) => IDataObject;
		continueOnFail: boolean;
		refuseFirst: (outcomes: Array<Map<string, IdOutcome>>) => void;
	},
): Promise<Array<Map<string, IdOutcome>>> {
	// Never part of the whole run's quote: a read ahead quotes the whole run itself.
	const purchasing = chargeMode(context, 'charge', 0) === 'purchase';
	const outcomes = batches.map(() => new Map<string, IdOutcome>());
	// A batch whose quote fails (with "On Error: Continue") has none: its items are error items,
	// nothing of it is held or bought, and the other batches go on, as items whose quote fails.
	const quoted: Array<QuotedBatch | undefined> = [];
	const quoteAll = async () => {
		// The quotes are free, so they travel together (within the run's window) rather than one
		// after another; they are read in batch order, so a run stops on the first batch's failure.
		const settled = await Promise.allSettled(
			batches.map((batch) => quoteBatch(context, batch, purchasing)),
		);
		for (const [index, result] of settled.entries()) {
			if (result.status === 'fulfilled') {
				quoted[index] = result.value;
				continue;
			}
			const nodeError = toNodeError(context.getNode(), result.reason, batches[index].itemIndex);
			if (!continueOnFail) throw nodeError;
			const failure = failureOf(nodeError);
			for (const id of batches[index].ids) outcomes[index].set(id, { error: { ...failure } });
		}
		return quoted.reduce(
			(sum, batch) => sum + (batch ? worstCaseCents(kind, foundQuote(batch)) : 0),
			0,
		);
	};
	const settleMissing = () =>
		batches.forEach((batch, index) => {
			if (!quoted[index]) return;
			const found = new Set(quoted[index].found);
			for (const id of batch.ids)
				if (!found.has(id)) outcomes[index].set(id, notFound(batch, id, subject(id)));
		});
	if (!purchasing) {
		await quoteAll();
		settleMissing();
		quoted.forEach((batch, index) => {
			for (const id of batch?.found ?? [])
				outcomes[index].set(id, { records: [previewOf(kind, batch!, extra(id))] });
		});
		return outcomes;
	}

	await assertWholeRunFits(context, spending, itemIndexes, quoteAll);
	settleMissing();
	refuseFirst(outcomes);
	const budget = await spending.budget();
	for (let index = 0; index < batches.length; index++) {
		const batch = quoted[index];
		if (!batch) continue;
		const failed = await buyBatch(context, budget, kind, batches[index], batch, {
			outcome: outcomes[index],
			subject,
		});
		if (!failed || (continueOnFail && !failed.stopsBuying)) continue;
		const why = failed.stopsBuying
			? 'Purchase refused: an earlier purchase of this run may have been charged'
			: 'Not bought: an earlier purchase of this run failed';
		for (let later = index + 1; later < batches.length; later++)
			for (const id of quoted[later]?.found ?? []) outcomes[later].set(id, notSent(why));
		break;
	}
	return outcomes;
}

/** One batch's purchase: whether it failed, and whether the run may buy nothing more. */
async function buyBatch(
	context: IExecuteFunctions,
	budget: SpendBudget,
	kind: PriceKind,
	batch: IdBatch,
	quoted: QuotedBatch,
	{
		outcome,
		subject,
	}: {
		outcome: Map<string, IdOutcome>;
		subject: (id: string) => string;
	},
): Promise<{ stopsBuying: boolean } | undefined> {
	const { found } = quoted;
	if (found.length === 0) return undefined;
	let response: ApiEnvelope;
	let note: ChargeNote;
	try {
		({ response, note } = await buy(
			context,
			budget,
			kind,
			foundQuote(quoted),
			batch.request(found),
			batch.itemIndex,
		));
	} catch (error) {
		const nodeError = toNodeError(context.getNode(), error, batch.itemIndex);
		const failure = failureOf(nodeError);
		failure.description = (
			`${failure.description ?? ''} This property was one of the ${found.length} that one ` +
			`purchase request asked for.`
		).trim();
		for (const id of found) outcome.set(id, { error: { ...failure } });
		return { stopsBuying: budget.stopped };
	}
	if (note.notice) warn(context, note.notice);
	const results = Array.isArray(response.results) ? response.results : [];
	const { byId, unpaired } = pairById(found, results);
	const counted = typeof response.resultCount === 'number' ? response.resultCount : results.length;
	const countedMore = counted > results.length;
	if (countedMore)
		budget.stopBuying(
			`a purchase of ${found.length} properties whose answer counted ${counted} charged ` +
				`records and held ${results.length} may have been charged for records it did not return.`,
		);
	for (const id of found) {
		const record = byId.get(id);
		if (record) outcome.set(id, { records: withCharge([record], note) });
	}
	// Records for no PropID asked for were bought all the same: they go out with an item of their
	// request, saying so (docs/money.md, rule 6).
	const holder = found.find((id) => outcome.has(id)) ?? found[0];
	if (unpaired.length > 0) {
		const notice =
			`PropRadar returned this record for none of the PropIDs its request asked for; it was ` +
			`charged with them, and is output with the item of ${holder}.`;
		const held = outcome.get(holder);
		outcome.set(holder, {
			records: [
				...(held && 'records' in held ? held.records : []),
				...withCharge(unpaired, { ...note, notice }),
			],
		});
	}
	const bought = `It was one of ${found.length} properties bought in one request (totalCost ${note.totalCost})`;
	for (const id of found) {
		if (outcome.has(id)) continue;
		outcome.set(id, {
			error: {
				message: `${subject(id)} was not in PropRadar's answer to its purchase`,
				description: countedMore
					? `${bought}; the answer counts ${counted} charged records but holds ` +
						`${results.length}, and not this one, so it may have been charged without reaching ` +
						`the output. This run buys nothing more. Check the account's charges in ` +
						`PropRadar before buying it again.`
					: unpaired.length > 0
						? `${bought}; the answer holds no record for this PropID and ${unpaired.length} ` +
							`for PropIDs not asked for, which are output with the item of ${holder}: one ` +
							`of them may be this property's, and may have been charged.`
						: `${bought}; the answer holds ${results.length} records and counts as many ` +
							`charged, and not this one, so nothing was charged for it (it existed when ` +
							`quoted).`,
			},
		});
	}
	return countedMore ? { stopsBuying: true } : undefined;
}

/** Each record to the ID it is for: as asked, or else in another case or with spaces around it. */
function pairById(
	ids: string[],
	records: IDataObject[],
): { byId: Map<string, IDataObject>; unpaired: IDataObject[] } {
	const byId = new Map<string, IDataObject>();
	const loose = (id: unknown) => String(id).trim().toUpperCase();
	const askedLoosely = new Map(ids.map((id) => [loose(id), id]));
	const unpaired: IDataObject[] = [];
	const asked = new Set(ids);
	for (const record of records) {
		const exact = String(record.PropID);
		const id = asked.has(exact) ? exact : askedLoosely.get(loose(record.PropID));
		if (id !== undefined && !byId.has(id)) byId.set(id, record);
		else unpaired.push(record);
	}
	return { byId, unpaired };
}

/** The error of an item whose ID came to no records. */
export function idError(
	context: IExecuteFunctions,
	outcome: Extract<IdOutcome, { error: IdFailure }>,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const { message, description, httpCode } = outcome.error;
	return httpCode
		? new NodeApiError(context.getNode(), {} as JsonObject, {
				message,
				description,
				httpCode,
				itemIndex,
			})
		: new NodeOperationError(context.getNode(), message, { description, itemIndex });
}
