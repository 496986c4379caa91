import { purchaseContactOperation } from './purchaseContact';

// The same operation as Purchase Email on another endpoint (purchaseContact.ts).
export const { description, execute, keepsInputKeys, boughtKey } =
	purchaseContactOperation('purchasePhone');
