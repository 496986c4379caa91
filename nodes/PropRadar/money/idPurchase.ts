import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { toNodeError, type ApiEnvelope } from '../transport';
import type { RunSpending, SpendBudget } from './budget';
import { counting, failureOf, idRequest, quoteIds } from './idBatches';
import type { IdOutcome, QuotedBatch, QuotedIdRun } from './idBatches';
import { buy, warn, withCharge, type ChargeNote } from './purchase';

const notSent = (why: string): IdOutcome => ({
	error: {
		message: why,
		description: 'Its purchase was not sent: nothing was bought or charged for this item.',
	},
});

// Each quoted batch bought once. After a failed batch the later ones are not sent, unless
// "On Error: Continue" and the run may still buy.
export async function buyIdBatches(
	context: IExecuteFunctions,
	spending: RunSpending,
	run: QuotedIdRun,
): Promise<Array<Map<string, IdOutcome>>> {
	const { batches, quoted, outcomes } = run;
	if (!run.purchasing) return outcomes;
	const budget = await spending.budget();
	for (let index = 0; index < batches.length; index++) {
		const batch = quoted[index];
		if (!batch) continue;
		const failed = await buyBatch(context, budget, run, index, batch);
		if (!failed || (run.continueOnFail && !failed.stopsBuying)) continue;
		const why = failed.stopsBuying
			? 'Purchase refused: an earlier purchase of this run may have been charged'
			: 'Not bought: an earlier purchase of this run failed';
		for (let later = index + 1; later < batches.length; later++)
			for (const id of quoted[later]?.found ?? []) outcomes[later].set(id, notSent(why));
		break;
	}
	return outcomes;
}

// PropIDs a shorter answer left out are quoted and bought again before any is called missing:
// PropRadar may hold fewer records a page than `Limit` asks for.
async function buyBatch(
	context: IExecuteFunctions,
	budget: SpendBudget,
	{ kind, batches, outcomes }: QuotedIdRun,
	index: number,
	quoted: QuotedBatch,
): Promise<{ stopsBuying: boolean } | undefined> {
	const batch = batches[index];
	const outcome = outcomes[index];
	for (let asked = quoted; asked.found.length > 0;) {
		const { found } = asked;
		let response: ApiEnvelope;
		let note: ChargeNote;
		try {
			const request = idRequest(batch, found);
			({ response, note } = await buy(
				context,
				budget,
				kind,
				asked.quote,
				request,
				batch.itemIndex,
			));
		} catch (error) {
			const failure = failureOf(toNodeError(context.getNode(), error, batch.itemIndex));
			failure.description =
				`${failure.description ?? ''} This property was one of the ${found.length} that one purchase request asked for.`.trim();
			for (const id of found) outcome.set(id, { error: { ...failure } });
			return { stopsBuying: budget.stopped };
		}
		if (note.notice) warn(context, note.notice);
		const settled = settleBatch(budget, found, response, note, outcome);
		if (settled.absent.length === 0) return undefined;
		if (settled.cutShort) {
			try {
				const again = await quoteIds(context, batch, true)(settled.absent);
				if (again.quote.count > 0) {
					asked = counting(kind, again, settled.absent);
					continue;
				}
			} catch {
				// The PropIDs stay as the answer left them: not bought, and nothing charged for them.
			}
		}
		for (const id of settled.absent) {
			const message = `Property ${id} was not in PropRadar's answer to its purchase`;
			outcome.set(id, { error: { message, description: settled.why } });
		}
		return settled.stopsBuying ? { stopsBuying: true } : undefined;
	}
	return undefined;
}

// An answer that holds fewer records than asked, each charged and each for a PropID asked, was cut short.
function settleBatch(
	budget: SpendBudget,
	found: string[],
	response: ApiEnvelope,
	note: ChargeNote,
	outcome: Map<string, IdOutcome>,
): { absent: string[]; why: string; cutShort: boolean; stopsBuying: boolean } {
	const results = Array.isArray(response.results) ? response.results : [];
	const { byId, unpaired } = pairById(found, results);
	const counted = typeof response.resultCount === 'number' ? response.resultCount : results.length;
	const countedMore = counted > results.length;
	if (countedMore)
		budget.stopBuying(
			`a purchase of ${found.length} properties whose answer counted ${counted} charged records and held ${results.length} may have been charged for records it did not return.`,
		);
	for (const id of found) {
		const record = byId.get(id);
		if (record) outcome.set(id, { records: withCharge([record], note) });
	}
	// Records for no PropID asked for were bought all the same: they go out with an item of their
	// request, saying so (docs/money.md, rule 6).
	const holder = found.find((id) => outcome.has(id)) ?? found[0];
	if (unpaired.length > 0) {
		const notice = `PropRadar returned this record for none of the PropIDs its request asked for; it was charged with them, and is output with the item of ${holder}.`;
		const held = outcome.get(holder);
		outcome.set(holder, {
			records: [
				...(held && 'records' in held ? held.records : []),
				...withCharge(unpaired, { ...note, notice }),
			],
		});
	}
	const bought = `It was one of ${found.length} properties bought in one request (totalCost ${note.totalCost})`;
	const why = countedMore
		? `${bought}; the answer counts ${counted} charged records but holds ${results.length}, and not this one, so it may have been charged without reaching the output. This run buys nothing more. Check the account's charges in PropRadar before buying it again.`
		: unpaired.length > 0
			? `${bought}; the answer holds no record for this PropID and ${unpaired.length} for PropIDs not asked for, which are output with the item of ${holder}: one of them may be this property's, and may have been charged.`
			: `${bought}; the answer holds ${results.length} records and counts as many charged, and not this one, so nothing was charged for it (it existed when quoted).`;
	const absent = found.filter((id) => !outcome.has(id));
	const cutShort = !countedMore && unpaired.length === 0 && byId.size > 0 && !budget.stopped;
	return { absent, why, cutShort, stopsBuying: countedMore };
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
