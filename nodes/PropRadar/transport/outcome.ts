/**
 * What a failed request did with the money, on its error as `charge` (docs/money.md, rule 3):
 * `none` when the service refused it with its error object, or it was never sent; `unknown` when a
 * purchase was sent and no answer says what became of it. A request that buys nothing and failed
 * otherwise has no `charge`.
 */
export type Charge = 'none' | 'unknown';

export function withCharge<T extends object>(error: T, charge: Charge | undefined): T {
	return charge ? Object.assign(error, { charge }) : error;
}

const chargeOf = (error: unknown): Charge | undefined =>
	typeof error === 'object' && error !== null ? (error as { charge?: Charge }).charge : undefined;

/** Refused by the service, or never sent: nothing was charged. */
export const chargedNothing = (error: unknown): boolean => chargeOf(error) === 'none';

/** A purchase that failed after it was sent, so that it may have been charged. */
export const mayHaveCharged = (error: unknown): boolean => chargeOf(error) === 'unknown';

export const markMayHaveCharged = <T extends object>(error: T): T => withCharge(error, 'unknown');

export const markNeverSent = <T extends object>(error: T): T => withCharge(error, 'none');

/** A 4xx with the service's error object: nothing was done. Only an answer gives an `httpCode`. */
export const refusedByService = (error: unknown): boolean =>
	chargedNothing(error) && Boolean((error as { httpCode?: unknown }).httpCode);
