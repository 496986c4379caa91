/**
 * Every value in `data` as text, keys included: all a reader of a trigger's static data has (n8n
 * stores it unencrypted and exports it with the workflow). The secrets checks of the engine and
 * e2e tiers try each as a delivery's signature.
 */
export function everyValue(data: unknown): string[] {
	if (typeof data === 'string') return [data];
	if (typeof data === 'number' || typeof data === 'boolean') return [String(data)];
	if (Array.isArray(data)) return data.flatMap(everyValue);
	if (typeof data === 'object' && data !== null)
		return Object.entries(data).flatMap(([key, value]) => [key, ...everyValue(value)]);
	return [];
}
