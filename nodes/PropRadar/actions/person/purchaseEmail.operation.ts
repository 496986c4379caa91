import { purchaseContactOperation } from './purchaseContact';

// The same operation as Purchase Phone on another endpoint (purchaseContact.ts).
export const { description, execute, keepsInputKeys, boughtKey } =
	purchaseContactOperation('purchaseEmail');
