import type { Query } from './types';

/**
 * Encodes a query the way the API reads it (API-NOTES.md): arrays as one comma-separated value,
 * booleans as 1/0; undefined, null, empty strings and empty arrays are left out.
 */
export function encodeQuery(query: Query | undefined): Record<string, string> {
	const encoded: Record<string, string> = {};
	for (const [name, value] of Object.entries(query ?? {})) {
		if (value === undefined || value === null || value === '') continue;
		if (Array.isArray(value)) {
			if (value.length > 0) encoded[name] = value.join(',');
		} else if (typeof value === 'boolean') {
			encoded[name] = value ? '1' : '0';
		} else {
			encoded[name] = String(value);
		}
	}
	return encoded;
}

/** A decimal money string of the API ("1.50") in integer cents. */
export function toCents(amount: string | number | undefined): number {
	if (amount === undefined || amount === '') return 0;
	const value = typeof amount === 'number' ? amount : Number.parseFloat(amount);
	if (!Number.isFinite(value)) throw new Error(`Not an amount: ${String(amount)}`);
	return Math.round(value * 100);
}

/** Integer cents as the API writes money: "1.50". */
export function formatCents(cents: number): string {
	return (cents / 100).toFixed(2);
}
