import type { Query } from './types';

/** As the API reads it (docs/api.md): arrays comma-separated, booleans 1/0, empty values left out. */
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

// Integer cents, or undefined for anything but a non-negative amount with at most two decimals:
// money code refuses what is unreadable, never reads it as $0 (docs/money.md, rule 5).
export function readCents(amount: unknown): number | undefined {
	if (typeof amount === 'string') {
		const text = amount.trim();
		if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) return undefined;
		const [units, decimals = ''] = text.split('.');
		return Number(units) * 100 + Number(decimals.padEnd(2, '0'));
	}
	if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return undefined;
	const cents = Math.round(amount * 100);
	return Math.abs(cents - amount * 100) < 1e-6 && cents <= Number.MAX_SAFE_INTEGER
		? cents
		: undefined;
}

export function formatCents(cents: number): string {
	return (cents / 100).toFixed(2);
}
