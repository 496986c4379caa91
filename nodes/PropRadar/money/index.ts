// The one home of money (docs/money.md), above transport/ and below actions/.

// The run, as the router asks for it; a batched operation (Import) says what it spent itself.
export { RunMoney, carryOutput, spentSoFar } from './run';
export { RunSpending } from './budget';
export type { Skipping } from './boughtBefore';
export type { ChargePass } from './properties';

// An item's purchase, as the operations ask for it: one request, pages, batches, IDs in batches.
export { chargedRequest } from './purchase';
export { chargedPages } from './pages';
export { chargedBatches } from './batches';
export type { BatchOutcome } from './batches';
export { chargedIdBatches, idError } from './idBatches';
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
