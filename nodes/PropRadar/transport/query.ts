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
