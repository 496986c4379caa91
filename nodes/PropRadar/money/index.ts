// The one home of money (docs/money.md), above transport/ and below actions/.

// The run's money, and the purchases the operations hand over whole.
export { RunMoney } from './run';
export { chargedBatches, importPurchasing } from './batches';
export { boughtIn } from './boughtBefore';
export { quoteIdBatches } from './idBatches';
export { buyIdBatches } from './idPurchase';
export { chargedPages } from './pages';
export { quoteItem } from './purchase';
export type { Skipping } from './boughtBefore';
export type { ChargePass } from './properties';
export type { BatchOutcome } from './batches';
export { idError } from './idPurchase';
export type { IdBatch, IdOutcome } from './idBatches';
export { withCharge } from './chargeNote';
export type { ChargeNote } from './chargeNote';

// The parameters money reads, and what automations may charge.
export { chargeProperties } from './properties';
export { boughtBeforeProperties } from './boughtBefore';
export { assertChargingAutomationAllowed, automationCharges } from './automation';
export { readCeiling } from './budget';

// Prices and amounts.
export { LIST_PRICES_CENTS } from './prices';
export type { PriceKind } from './prices';
export { formatCents } from './cents';
