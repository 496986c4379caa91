/** What a failed request certainly did not do, marked on its error where it is made. */

const refusals = new WeakSet<object>();
const neverSent = new WeakSet<object>();

/** Marks `error` as the service's definite refusal of its request. */
export function markRefused<T extends object>(error: T): T {
	refusals.add(error);
	return error;
}

/** Marks `error` as the failure of a request that was never sent. */
export function markNeverSent<T extends object>(error: T): T {
	neverSent.add(error);
	return error;
}

/**
 * Whether `error` is the service's definite refusal of the request (a 4xx with its error object):
 * then nothing was done and nothing charged.
 */
export function refusedByService(error: unknown): boolean {
	return typeof error === 'object' && error !== null && refusals.has(error);
}

/**
 * Whether the request of `error` certainly charged nothing: the service refused it, or it was
 * never sent (its connection could not be made, or n8n's SSRF protection refused its address).
 * For any other failure of a purchase the charge may have happened.
 */
export function chargedNothing(error: unknown): boolean {
	return refusedByService(error) || (typeof error === 'object' && error !== null && neverSent.has(error));
}
