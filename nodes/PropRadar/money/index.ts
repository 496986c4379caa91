// The one home of money (docs/money.md), above transport/ and below actions/.
export * from './batches';
export * from './ceiling';
export * from './idBatches';
export * from './idPurchase';
export * from './pages';
export * from './properties';
export * from './purchase';
export * from './quote';
export * from './run';
