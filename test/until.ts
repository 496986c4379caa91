/** Waits for a condition that comes about asynchronously (a delivery, a registration); fails after `limitMs`. */
export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, limitMs = 15_000, pollMs = 20): Promise<T> {
	const deadline = Date.now() + limitMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, pollMs));
	}
}
