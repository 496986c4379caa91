/**
 * The price per charged record the node assumes, in cents (the documents give none): what a record costs once free
 * export credits are gone. Purchases are held at it, or at a higher price a quote reveals (docs/money.md).
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
