import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ApiEnvelope } from '../transport';
import { chargedNothing, toNodeError } from '../transport';
import { formatCents, money } from './cents';
import type { RunSpending, SpendBudget } from './budget';
import type { PriceKind } from './prices';
import { chargeMode } from './properties';
import { settleAnswer, warn, type ChargeNote } from './chargeNote';
import { purchaseBudget, refusal } from './refusal';
import { previewRecord, readQuote, worstCaseCents, type Quote } from './quote';

/** The records that go to one place (an import list): quoted and sent with their own requests. */
export interface ChargeGroup<R> {
	records: R[];
	/** Sends records with `Purchase` 0 (the quote, repeatable) or 1 (the purchase, sent once). */
	send(records: R[], purchase: 0 | 1): Promise<ApiEnvelope>;
	/** Sent beside the group's quote once the money settings pass, awaited before anything is bought. */
	check?(): Promise<void>;
}

export interface BatchedCharge<R> {
	kind: PriceKind;
	/** The input items the records come from: Max Cost is read for each. */
	itemCount: number;
	groups: Array<ChargeGroup<R>>;
	batchSize: number;
	/** Once per record, in order; a batch's records are settled while the next batch travels. */
	settled(group: number, index: number, outcome: BatchOutcome): void;
}

export type BatchOutcome =
	| { bought: true; result: IDataObject; note: ChargeNote }
	| { bought: false; error: string; description: string; httpCode?: string };

interface QuotedGroup {
	response: ApiEnvelope;
	quote: Quote;
	held: number;
}

async function quoteGroup<R>(
	context: IExecuteFunctions,
	kind: PriceKind,
	{ records, send, check }: ChargeGroup<R>,
	purchasing: boolean,
): Promise<QuotedGroup> {
	const checked = check?.();
	// Its failure is awaited below, once the quote is answered.
	checked?.catch(() => undefined);
	let response: ApiEnvelope;
	try {
		response = await send(records, 0);
	} catch (error) {
		await checked;
		const nodeError = toNodeError(context.getNode(), error);
		if (purchasing)
			nodeError.description = (
				`${nodeError.description ?? ''} This was the free quote before the import: ` +
				`no record was sent for import, and nothing was charged.`
			).trim();
		throw nodeError;
	}
	await checked;
	const quote = readQuote(context, response, 0);
	// Every record sent may be charged, whatever the quote counted.
	return {
		response,
		quote,
		held: worstCaseCents(kind, { ...quote, count: Math.max(quote.count, records.length) }),
	};
}

/**
 * Import Record > Import: every group quoted at once, the whole import held at once, then each group's batches,
 * each sent once the one before is settled (docs/money.md, rule 6). Returns a preview per group, or none.
 */
export async function chargedBatches<R>(
	context: IExecuteFunctions,
	spending: RunSpending,
	{ kind, itemCount, groups, batchSize, settled }: BatchedCharge<R>,
): Promise<{ previews?: IDataObject[] }> {
	let budget: SpendBudget | undefined;
	// Never part of the whole run's quote: a batched operation takes every item at once.
	if (chargeMode(context, 'charge', 0) === 'purchase')
		for (let itemIndex = 0; itemIndex < itemCount; itemIndex++)
			budget = await purchaseBudget(context, spending, itemIndex);
	// Every list's free quote travels at once; the first failure (in list order) is the import's, once all are answered.
	const quotes = await Promise.allSettled(
		groups.map((group) => quoteGroup(context, kind, group, !!budget)),
	);
	const quoted: QuotedGroup[] = [];
	for (const quote of quotes) {
		if (quote.status === 'rejected') throw quote.reason;
		quoted.push(quote.value);
	}
	if (!budget) {
		return {
			previews: quoted.map(({ response, quote, held }) =>
				previewRecord(kind, response, quote, {}, held),
			),
		};
	}

	const records = groups.reduce((sum, group) => sum + group.records.length, 0);
	const refused = budget.hold(quoted.reduce((sum, { held }) => sum + held, 0));
	if (refused) {
		throw refusal(context, `${refused} The import of ${records} records was not started.`, 0);
	}
	let importedBefore = 0;
	for (let index = 0; index < groups.length; index++) {
		const stop = await buyGroup(context, budget, groups[index], quoted[index].held, {
			batchSize,
			importedBefore,
			records,
			settled: (record, outcome) => settled(index, record, outcome),
		});
		importedBefore += groups[index].records.length;
		if (stop) {
			// What was held for the groups not started goes back; their records were not sent.
			for (let later = index + 1; later < groups.length; later++) {
				budget.release(quoted[later].held);
				groups[later].records.forEach((_, record) =>
					settled(later, record, { bought: false, ...stop }),
				);
			}
			return {};
		}
	}
	return {};
}

/** One group's batches; says why the import stopped, for the records of the groups after it, or nothing. */
async function buyGroup<R>(
	context: IExecuteFunctions,
	budget: SpendBudget,
	{ records, send }: ChargeGroup<R>,
	held: number,
	{
		batchSize,
		importedBefore,
		records: recordsInAll,
		settled,
	}: {
		batchSize: number;
		/** Records of the groups before this one, and of the whole import. */
		importedBefore: number;
		records: number;
		settled: (index: number, outcome: BatchOutcome) => void;
	},
): Promise<{ error: string; description: string } | undefined> {
	let heldLeft = held;
	const perRecord = Math.ceil(held / Math.max(records.length, 1));
	let batch = records.slice(0, batchSize);
	let sending = send(batch, 1);
	for (let start = 0; start < records.length; start += batchSize) {
		const heldForBatch = Math.min(heldLeft, perRecord * batch.length);
		let answer: ApiEnvelope;
		try {
			answer = await sending;
		} catch (error) {
			const nodeError = toNodeError(context.getNode(), error);
			const nothingCharged = chargedNothing(error);
			if (nothingCharged) budget.release(heldLeft);
			else {
				budget.keepUnconfirmed(
					heldForBatch,
					`a batch of ${batch.length} records whose answer was lost or failed`,
				);
				budget.release(heldLeft - heldForBatch);
			}
			const before =
				`${importedBefore + start} records were imported and charged before this batch ` +
				`(${money(budget.spent - (nothingCharged ? 0 : heldForBatch))} spent).`;
			const httpCode = (nodeError as { httpCode?: string | null }).httpCode ?? undefined;
			const notSent = {
				error: 'Not imported: an earlier batch of this import failed',
				description:
					`This record was not sent and not charged: the batch with records ` +
					`${importedBefore + start} to ${importedBefore + start + batch.length - 1} failed ` +
					`(${nodeError.message}). ${before}`,
			};
			for (let index = start; index < records.length; index++) {
				const inBatch = index < start + batch.length;
				settled(
					index,
					inBatch
						? {
								bought: false,
								httpCode,
								error: nodeError.message,
								description:
									`${nodeError.description ?? ''} ${nothingCharged ? `The ${batch.length} records of this batch were not imported and not charged.` : `The ${batch.length} records of this batch may have been imported and charged; look at the import list before sending them again.`} ${before}`.trim(),
							}
						: { bought: false, httpCode, ...notSent },
				);
			}
			warn(
				context,
				`Import stopped at record ${importedBefore + start}: ${importedBefore + start} records ` +
					`imported, ${recordsInAll - importedBefore - start} not (see the error items).`,
			);
			return notSent;
		}
		const results = Array.isArray(answer?.results) ? answer.results : [];
		heldLeft -= heldForBatch;
		const { charged, notice } = settleAnswer(
			budget,
			heldForBatch,
			answer,
			results.length,
			`a batch of ${batch.length} records`,
		);
		const note: ChargeNote = {
			totalCost: charged === undefined ? 'unknown' : formatCents(charged),
			resultCount: answer?.resultCount ?? results.length,
			runTotalCost: formatCents(budget.spent),
			...(notice ? { notice } : {}),
		};
		const answered = batch;
		const next = start + answered.length;
		// The next batch travels while this one's records are handed on; sleep(0) lets its request be written first (docs/design.md).
		if (!notice && next < records.length) {
			batch = records.slice(next, next + batchSize);
			sending = send(batch, 1);
			// Its failure is awaited below, after the wait.
			sending.catch(() => undefined);
			await sleep(0);
		}
		for (let offset = 0; offset < answered.length; offset++) {
			const result = results[offset];
			settled(
				start + offset,
				result
					? { bought: true, result, note }
					: {
							bought: false,
							error: 'PropRadar returned no import item for this record',
							description:
								`The answer to its batch had ${results.length} items for ` +
								`${answered.length} records; check the import list.`,
						},
			);
		}
		if (notice) {
			warn(context, notice);
			const stopped = {
				error: 'Not imported: the import stopped buying',
				description: `${notice} This record was not sent and not charged.`,
			};
			for (let index = next; index < records.length; index++)
				settled(index, { bought: false, ...stopped });
			budget.release(heldLeft);
			return stopped;
		}
	}
	budget.release(heldLeft);
	return undefined;
}
