/** What a failed request certainly did not do, marked on its error where it is made. */

const refusals = new WeakSet<object>();
const neverSent = new WeakSet<object>();

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
