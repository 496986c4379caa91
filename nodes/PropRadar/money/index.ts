// The one home of money (docs/money.md), above transport/ and below actions/.
export { assertChargingAutomationAllowed, automationCharges } from './automation';
export { chargedBatches } from './batches';
export {
	boughtBeforeProperties,
	boughtIn,
	findBoughtBefore,
	readBoughtBefore,
	recordBought,
	skippedHint,
} from './boughtBefore';
export type { BoughtBefore } from './boughtBefore';
export { chargedIdBatches, idError } from './idBatches';
export type { IdBatch, IdOutcome } from './idBatches';
export type { BatchOutcome } from './batches';
export { readCeiling, RunSpending } from './budget';
export { chargedPages, StoppedAfterBuying } from './pages';
export { LIST_PRICES_CENTS } from './prices';
export type { PriceKind } from './prices';
export { chargeProperties } from './properties';
export type { ChargePass } from './properties';
export { assertWholeRunFits, chargedRecords, chargedRequest, withCharge } from './purchase';
export {
	carryOutput,
	cents,
	chargeStatement,
	failureCharge,
	previewRunTotal,
	purchaseWithoutCredits,
	spentSoFar,
} from './run';
export { money } from './tally';
