import type { Query } from './types';

/**
 * Encodes a query the way the API reads it (docs/api.md): arrays as one comma-separated value,
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

/**
 * An amount of money in integer cents, or undefined when it is not one: the API's decimal strings
 * ("1.50", "0", "12"), or a number, never negative and with at most two decimals. Anything else
 * ("", "-5.00", "abc", NaN, 0.004, an HTML page) is unreadable, and money code treats unreadable
 * as "refuse", never as $0.
 */
export function readCents(amount: unknown): number | undefined {
	if (typeof amount === 'string') {
		const text = amount.trim();
		if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) return undefined;
		const [units, decimals = ''] = text.split('.');
		return Number(units) * 100 + Number(decimals.padEnd(2, '0'));
	}
	if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return undefined;
	const cents = Math.round(amount * 100);
	return Math.abs(cents - amount * 100) < 1e-6 && cents <= Number.MAX_SAFE_INTEGER ? cents : undefined;
}

/** Integer cents as the API writes money: "1.50". */
export function formatCents(cents: number): string {
	return (cents / 100).toFixed(2);
}
