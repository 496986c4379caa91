import { sleep, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, chargedNothing, noResultsArray, toNodeError } from '../transport';
import type { ApiEnvelope, ApiRequest } from '../transport';
import { refusal, type RunSpending, type SpendBudget } from './budget';
import { settleAnswer, warn, type ChargeNote } from './purchase';
import { money, previewRecord, readQuote, worstCaseCents } from './quote';
import type { PriceKind, Quote } from './quote';

// Import Record > Import (docs/money.md, rule 6): every group (an import list) quoted at once and
// the whole import held at once, then each group's batches, each sent once the one before is settled.

/** The records that go to one import list, with their own requests. */
export interface ChargeGroup {
	records: IDataObject[];
	/** The request without `Purchase` and the records (the body). */
	request: ApiRequest;
	/** The list's own check, started beside its quote; awaited before anything is bought. */
	checked?: Promise<void>;
}

export interface BatchedCharge {
	kind: PriceKind;
	groups: ChargeGroup[];
	batchSize: number;
}

type Stop = { error: string; description: string; httpCode?: string };

export type BatchOutcome =
	{ bought: true; result: IDataObject; note: ChargeNote } | ({ bought: false } & Stop);

/** A preview per group, or every record's outcome, by group and record. */
export type BatchesResult = { previews: IDataObject[] } | { outcomes: BatchOutcome[][] };

interface QuotedGroup {
	response: ApiEnvelope;
	quote: Quote;
	held: number;
}

const send = (
	context: IExecuteFunctions,
	{ request }: ChargeGroup,
	records: IDataObject[],
	purchase: 0 | 1,
) =>
	apiRequest<ApiEnvelope>(context, {
		...request,
		qs: { Purchase: purchase, ...request.qs },
		body: records,
		repeatable: purchase === 0,
	});

async function quoteGroup(
	context: IExecuteFunctions,
	kind: PriceKind,
	group: ChargeGroup,
	purchasing: boolean,
): Promise<QuotedGroup> {
	// Its failure is awaited below, once the quote is answered.
	group.checked?.catch(() => undefined);
	let response: ApiEnvelope;
	try {
		response = await send(context, group, group.records, 0);
	} catch (error) {
		await group.checked;
		const nodeError = toNodeError(context.getNode(), error);
		if (purchasing)
			nodeError.description =
				`${nodeError.description ?? ''} This was the free quote before the import: no record was sent for import, and nothing was charged.`.trim();
		throw nodeError;
	}
	await group.checked;
	const quote = readQuote(context, response, 0);
	// Every record sent may be charged, whatever the quote counted.
	const count = Math.max(quote.count, group.records.length);
	return { response, quote, held: worstCaseCents(kind, { ...quote, count }) };
}

/** Every group quoted, then (in Purchase mode) held whole and bought batch by batch. */
export async function chargedBatches(
	context: IExecuteFunctions,
	spending: RunSpending,
	purchasing: boolean,
	{ kind, groups, batchSize }: BatchedCharge,
): Promise<BatchesResult> {
	// Every list's free quote travels at once; the first failure (in list order) is the import's, once all are answered.
	const quotes = await Promise.allSettled(
		groups.map((group) => quoteGroup(context, kind, group, purchasing)),
	);
	const quoted = quotes.map((quote) => {
		if (quote.status === 'rejected') throw quote.reason;
		return quote.value;
	});
	if (!purchasing) {
		return {
			previews: quoted.map(({ response, quote, held }) =>
				previewRecord(kind, response, quote, {}, held),
			),
		};
	}
	const budget = await spending.budget();
	const records = groups.reduce((sum, group) => sum + group.records.length, 0);
	const refused = budget.hold(quoted.reduce((sum, { held }) => sum + held, 0));
	if (refused)
		throw refusal(context, `${refused} The import of ${records} records was not started.`, 0);
	const outcomes = groups.map(() => [] as BatchOutcome[]);
	let importedBefore = 0;
	for (let index = 0; index < groups.length; index++) {
		const { held } = quoted[index];
		const run = { context, budget, batchSize, importedBefore, recordsInAll: records };
		const stop = await buyGroup({ ...groups[index], ...run, held, outcomes: outcomes[index] });
		importedBefore += groups[index].records.length;
		if (!stop) continue;
		// What was held for the groups not started goes back; their records were not sent.
		for (let later = index + 1; later < groups.length; later++) {
			budget.release(quoted[later].held);
			outcomes[later] = groups[later].records.map(() => ({ bought: false, ...stop }));
		}
		break;
	}
	return { outcomes };
}

interface GroupPurchase extends ChargeGroup {
	context: IExecuteFunctions;
	budget: SpendBudget;
	held: number;
	outcomes: BatchOutcome[];
	batchSize: number;
	/** Records of the groups before this one, and of the whole import. */
	importedBefore: number;
	recordsInAll: number;
}

type SentBatch = { start: number; size: number; heldLeft: number; heldForBatch: number };

/** A batch failed: its records and the group's later ones say what happened to the money. */
function batchFailed(group: GroupPurchase, sent: SentBatch, error: unknown): Stop {
	const { context, budget, importedBefore, recordsInAll } = group;
	const { start, size, heldLeft, heldForBatch } = sent;
	const nodeError = toNodeError(context.getNode(), error);
	const nothingCharged = chargedNothing(error);
	if (nothingCharged) budget.release(heldLeft);
	else {
		const what = `a batch of ${size} records whose answer was lost or failed`;
		budget.keepUnconfirmed(heldForBatch, what);
		budget.release(heldLeft - heldForBatch);
	}
	const first = importedBefore + start;
	const before = `${first} records were imported and charged before this batch (${money(budget.spent - (nothingCharged ? 0 : heldForBatch))} spent).`;
	const httpCode = (nodeError as { httpCode?: string | null }).httpCode ?? undefined;
	const notSent = {
		error: 'Not imported: an earlier batch of this import failed',
		description: `This record was not sent and not charged: the batch with records ${first} to ${first + size - 1} failed (${nodeError.message}). ${before}`,
	};
	const inBatch = nothingCharged
		? `The ${size} records of this batch were not imported and not charged.`
		: `The ${size} records of this batch may have been imported and charged; look at the import list before sending them again.`;
	const failed: BatchOutcome = {
		bought: false,
		httpCode,
		error: nodeError.message,
		description: `${nodeError.description ?? ''} ${inBatch} ${before}`.trim(),
	};
	for (let index = start; index < group.records.length; index++)
		group.outcomes[index] =
			index < start + size ? { ...failed } : { bought: false, httpCode, ...notSent };
	warn(
		context,
		`Import stopped at record ${first}: ${first} records imported, ${recordsInAll - first} not (see the error items).`,
	);
	return notSent;
}

/** One group's batches; says why the import stopped, for the records of the groups after it, or nothing. */
async function buyGroup(group: GroupPurchase): Promise<Stop | undefined> {
	const { context, budget, records, outcomes, batchSize } = group;
	let heldLeft = group.held;
	const perRecord = Math.ceil(group.held / Math.max(records.length, 1));
	let batch = records.slice(0, batchSize);
	let sending = send(context, group, batch, 1);
	for (let start = 0; start < records.length; start += batchSize) {
		const heldForBatch = Math.min(heldLeft, perRecord * batch.length);
		let answer: ApiEnvelope;
		const sent = { start, size: batch.length, heldLeft, heldForBatch };
		try {
			answer = await sending;
		} catch (error) {
			return batchFailed(group, sent, error);
		}
		if (!Array.isArray(answer?.results)) {
			const what = `an import batch of ${batch.length} records`;
			const error = noResultsArray(context.getNode(), answer, what, 'Its charge is unknown.');
			return batchFailed(group, sent, error);
		}
		const results = answer.results;
		heldLeft -= heldForBatch;
		const note = settleAnswer(budget, heldForBatch, answer, `a batch of ${batch.length} records`);
		const { notice } = note;
		const answered = batch.length;
		const next = start + answered;
		// The next batch travels while this one's records are settled; sleep(0) lets its request be written first (docs/design.md).
		if (!notice && next < records.length) {
			batch = records.slice(next, next + batchSize);
			sending = send(context, group, batch, 1);
			// Its failure is awaited below, after the wait.
			sending.catch(() => undefined);
			await sleep(0);
		}
		for (let offset = 0; offset < answered; offset++) {
			const result = results[offset];
			outcomes[start + offset] = result
				? { bought: true, result, note }
				: {
						bought: false,
						error: 'PropRadar returned no import item for this record',
						description: `The answer to its batch had ${results.length} items for ${answered} records; check the import list.`,
					};
		}
		if (notice) {
			warn(context, notice);
			const stopped = {
				error: 'Not imported: the import stopped buying',
				description: `${notice} This record was not sent and not charged.`,
			};
			for (let index = next; index < records.length; index++)
				outcomes[index] = { bought: false, ...stopped };
			budget.release(heldLeft);
			return stopped;
		}
	}
	budget.release(heldLeft);
	return undefined;
}
