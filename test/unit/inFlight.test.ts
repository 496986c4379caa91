/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { InFlight, MAX_IN_FLIGHT } from '../../nodes/PropRadar/transport/run';

async function settle() {
	for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setImmediate(resolve));
}

// Asks for `wanted` places; returns how many were given so far (it grows as places are left).
async function ask(run: InFlight, wanted: number, stop?: AbortSignal) {
	const given: boolean[] = [];
	const asked = Array.from({ length: wanted }, () =>
		run.enter(stop).then((got) => {
			given.push(got);
			return got;
		}),
	);
	await settle();
	return { given, asked };
}

describe("a run's requests in flight", () => {
	test(`lets ${MAX_IN_FLIGHT} through at once, and one more for each that is answered, in turn`, async () => {
		const run = new InFlight();
		const { given } = await ask(run, MAX_IN_FLIGHT + 3);
		expect(MAX_IN_FLIGHT).toBe(50);
		expect(given).toHaveLength(MAX_IN_FLIGHT);
		run.leave();
		run.leave();
		await settle();
		expect(given).toHaveLength(MAX_IN_FLIGHT + 2);
	});

	test('a request waiting for a place stops waiting when the execution is stopped, and takes none', async () => {
		const run = new InFlight();
		await ask(run, MAX_IN_FLIGHT);
		const stop = new AbortController();
		const { given, asked } = await ask(run, 1, stop.signal);
		expect(given).toEqual([]);
		stop.abort();
		expect(await asked[0]).toBe(false);
		// Its turn is not lost to the ones after it.
		const { given: next } = await ask(run, 1);
		run.leave();
		await settle();
		expect(next).toEqual([true]);
		expect(await run.enter(stop.signal)).toBe(false);
	});
});
