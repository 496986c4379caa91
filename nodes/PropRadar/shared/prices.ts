/**
 * The price per charged record the node assumes, in cents, by kind of record (docs/money.md): the
 * documents give none. Free export credits pay for records first; these are what a record costs
 * once they are gone. The node counts every record of a purchase at this price, or at the higher
 * price a quote reveals, when it holds a purchase against Max Cost and the credential's ceiling,
 * so free credits used up by someone else between quote and purchase cannot take it past the cap
 * unless the service's price is above both (docs/money.md, "What no quote shows"). The sandbox
 * has prices of its own (sandbox/charges.ts).
 */
export const LIST_PRICES_CENTS = {
	/** Property > Get, Property > Search (per property returned). */
	property: 10,
	/** Evictions, comps, parcels, transactions (per call that returns data). */
	propertyDetail: 25,
	/** Person > Get Owners (per owner returned). */
	person: 15,
	/** Bankruptcies, divorces, liens, probates, relatives (per record returned). */
	personRecord: 20,
	/** Person > Purchase Phone, and an automation with Purchase Phone (per triggered record). */
	phone: 40,
	/** Person > Purchase Email, and an automation with Purchase Email (per triggered record). */
	email: 30,
	/** Import Record > Import (per imported record). */
	importRecord: 5,
} as const;

export type PriceKind = keyof typeof LIST_PRICES_CENTS;

/**
 * How many records a call that returns `records` of `kind` is charged for: one per record, but one
 * per call that returns data for the property details (evictions, comps, parcels, transactions).
 */
export function recordsCharged(kind: PriceKind, records: number): number {
	return kind === 'propertyDetail' ? Math.min(records, 1) : records;
}
