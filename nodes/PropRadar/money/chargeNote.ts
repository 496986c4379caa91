import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiEnvelope } from '../transport';
import type { SpendBudget } from './budget';
import { money, readCents } from './cents';

// What a purchase's answer settles and how its records say what they cost, shared by every shape
// of purchase (one request, pages, batches, IDs in batches).

export interface ChargeNote extends IDataObject {
	/** What the purchase (one request) the record came from cost, and how many records it charged. */
	totalCost: string;
	resultCount: number;
	runTotalCost: string;
	/** Set when the run stopped buying before it had everything that was asked for. */
	notice?: string;
}

export function settleAnswer(
	budget: SpendBudget,
	heldCents: number,
	response: ApiEnvelope,
	records: number,
	what: string,
): { charged?: number; notice?: string } {
	const charged = readCents(response?.totalCost);
	if (charged === undefined) {
		budget.keepUnconfirmed(heldCents, `${what} whose answer gave no readable totalCost`);
		budget.settle(0, 0, records);
		return {
			notice:
				`PropRadar's answer did not say what this purchase cost; up to ` +
				`${money(heldCents)} is counted as spent and this run buys nothing more.`,
		};
	}
	return { charged, notice: budget.settle(heldCents, charged, records) };
}

export function withCharge(records: IDataObject[], note: ChargeNote): IDataObject[] {
	return records.map((record) => ({ ...record, _charge: note }));
}

export function warn(context: IExecuteFunctions, message: string): void {
	context.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}
