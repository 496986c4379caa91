import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ApiEnvelope } from '../transport';
import { chargedNothing, formatCents, toNodeError } from '../transport';
import type { RunSpending } from './budget';
import type { PriceKind } from './prices';
import { chargeMode } from './properties';
import { purchaseBudget, refusal, settleAnswer, warn, type ChargeNote } from './purchase';
import { previewRecord, readQuote, worstCaseCents } from './quote';
import { money } from './tally';

export interface BatchedCharge<R> {
	kind: PriceKind;
	records: R[];
	batchSize: number;
	/** Sends records with `Purchase` 0 (the quote, repeatable) or 1 (the purchase, sent once). */
	send(records: R[], purchase: 0 | 1): Promise<ApiEnvelope>;
	/** Sent beside the quote once the money settings pass, awaited before anything is bought. */
	check?(): Promise<void>;
	/** Once per record, in order; a batch's records are settled while the next batch travels. */
	settled(index: number, outcome: BatchOutcome): void;
}

export type BatchOutcome =
	| { bought: true; result: IDataObject; note: ChargeNote }
	| { bought: false; error: string; description: string; httpCode?: string };

/** Import Record > Import: one quote of all records, then each batch sent once the one before is settled (docs/money.md, rule 6). */
export async function chargedBatches<R>(
	context: IExecuteFunctions,
	spending: RunSpending,
	{ kind, records, batchSize, send, check, settled }: BatchedCharge<R>,
): Promise<{ preview?: IDataObject }> {
	const mode = chargeMode(context, spending, 0);
	const budget = mode === 'purchase' ? await purchaseBudget(context, spending, 0) : undefined;
	const checked = check?.();
	// Its failure is awaited below, once the quote is answered.
	checked?.catch(() => undefined);
	let response: ApiEnvelope;
	try {
		response = await send(records, 0);
	} catch (error) {
		await checked;
		const nodeError = toNodeError(context.getNode(), error);
		if (budget)
			nodeError.description = (
				`${nodeError.description ?? ''} This was the free quote before the import: ` +
				`no record was sent for import, and nothing was charged.`
			).trim();
		throw nodeError;
	}
	await checked;
	const quote = readQuote(context, response, 0);
	// Every record sent may be charged, whatever the quote counted.
	const held = worstCaseCents(kind, { ...quote, count: Math.max(quote.count, records.length) });
	if (!budget) return { preview: previewRecord(kind, response, quote, {}, held) };

	const refused = budget.hold(held);
	if (refused) {
		throw refusal(
			context,
			`${refused} The import of ${records.length} records was not started.`,
			0,
		);
	}
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
				`${start} records were imported and charged before this batch ` +
				`(${money(budget.spent - (nothingCharged ? 0 : heldForBatch))} spent).`;
			const httpCode = (nodeError as { httpCode?: string | null }).httpCode ?? undefined;
			for (let index = start; index < records.length; index++) {
				const inBatch = index < start + batch.length;
				settled(index, {
					bought: false,
					httpCode,
					error: inBatch
						? nodeError.message
						: 'Not imported: an earlier batch of this import failed',
					description: inBatch
						? `${nodeError.description ?? ''} ${nothingCharged ? `The ${batch.length} records of this batch were not imported and not charged.` : `The ${batch.length} records of this batch may have been imported and charged; look at the import list before sending them again.`} ${before}`.trim()
						: `This record was not sent and not charged: the batch with records ` +
							`${start} to ${start + batch.length - 1} failed ` +
							`(${nodeError.message}). ${before}`,
				});
			}
			warn(
				context,
				`Import stopped at record ${start}: ${start} records imported, ` +
					`${records.length - start} not (see the error items).`,
			);
			return {};
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
			for (let index = next; index < records.length; index++) {
				settled(index, {
					bought: false,
					error: 'Not imported: the import stopped buying',
					description: `${notice} This record was not sent and not charged.`,
				});
			}
			break;
		}
	}
	budget.release(heldLeft);
	return {};
}
