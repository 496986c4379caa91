/** Types of scripts/until.js (plain CommonJS, shared by the demo, scripts/n8n-host.js and the tests). */

/**
 * Calls `probe` until it gives a value other than undefined and resolves to that value; rejects
 * with "gave up waiting for <what>" after `limitMs`, and with whatever `probe` throws.
 */
export function until<T>(
	what: string,
	probe: () => T | undefined | Promise<T | undefined>,
	limitMs?: number,
	pollMs?: number,
): Promise<T>;
