// The one polling helper of the repository, for the demo, the n8n host helper and the tests: waits for
// something that comes about asynchronously (a server answering, a delivery, a registration).
'use strict';

/**
 * Calls `probe` until it gives a value other than undefined and resolves to that value; rejects
 * with "gave up waiting for <what>" after `limitMs`, and with whatever `probe` throws (stop waiting
 * by throwing from it).
 */
async function until(what, probe, limitMs = 15_000, pollMs = 20) {
	const deadline = Date.now() + limitMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, pollMs));
	}
}

module.exports = { until };
