/** Cents per charged record once free credits are gone: the node's assumption, the documents give no prices (docs/money.md). */
export const LIST_PRICES_CENTS = {
	property: 10,
	/** Evictions, comps, parcels, transactions (per call that returns data). */
	propertyDetail: 25,
	/** Person > Get Owners (per owner returned). */
	person: 15,
	/** Bankruptcies, divorces, liens, probates, relatives (per record returned). */
	personRecord: 20,
	phone: 40,
	email: 30,
	importRecord: 5,
} as const;

export type PriceKind = keyof typeof LIST_PRICES_CENTS;

/** The property details are charged once per call that returns data, whatever its number of records. */
export function recordsCharged(kind: PriceKind, records: number): number {
	return kind === 'propertyDetail' ? Math.min(records, 1) : records;
}
