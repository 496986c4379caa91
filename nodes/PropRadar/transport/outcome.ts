/** What a failed request certainly did, or did not, do with the money, marked on its error where it is made. */

const refusals = new WeakSet<object>();
const neverSent = new WeakSet<object>();
const chargeUnknown = new WeakSet<object>();

export function markRefused<T extends object>(error: T): T {
	refusals.add(error);
	return error;
}

export function markNeverSent<T extends object>(error: T): T {
	neverSent.add(error);
	return error;
}

/** A 4xx with the service's error object: nothing was done and nothing charged. */
export function refusedByService(error: unknown): boolean {
	return typeof error === 'object' && error !== null && refusals.has(error);
}

/** Refused by the service, or never sent; any other failure of a purchase may have charged. */
export function chargedNothing(error: unknown): boolean {
	return (
		refusedByService(error) || (typeof error === 'object' && error !== null && neverSent.has(error))
	);
}

/** A purchase that failed after it was sent, so that it may have been charged (docs/money.md, rule 3). */
export function markMayHaveCharged<T extends object>(error: T): T {
	chargeUnknown.add(error);
	return error;
}

export function mayHaveCharged(error: unknown): boolean {
	return typeof error === 'object' && error !== null && chargeUnknown.has(error);
}
