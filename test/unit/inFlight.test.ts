/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { FIRST_WINDOW, InFlight, MAX_IN_FLIGHT } from '../../nodes/PropRadar/transport/inFlight';

type Place = { epoch: number; sentAt: number };

// Enters as many as the window lets in without waiting; the ones left waiting are returned too.
async function fill(window: InFlight, wanted: number) {
	const entered: Place[] = [];
	const waiting: Array<Promise<Place | false>> = [];
	for (let index = 0; index < wanted; index++) {
		const place = window.enter(undefined);
		void place.then((got) => {
			if (got) entered.push(got);
		});
		waiting.push(place);
	}
	// Let every place that can be given be given.
	for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setImmediate(resolve));
	return { entered, waiting };
}

async function settle() {
	for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setImmediate(resolve));
}

describe("a run's window of requests in flight", () => {
	test('starts at 10 and lets no more through until one is answered', async () => {
		const window = new InFlight();
		const { entered } = await fill(window, 30);
		expect(FIRST_WINDOW).toBe(10);
		expect(entered).toHaveLength(10);
		expect(window.peak).toBe(10);
	});

	test('grows by one with every answer until the service is busy, and never past 50', async () => {
		const window = new InFlight();
		const { entered } = await fill(window, 200);
		// Each answer frees its place and adds one: two more go.
		window.leave(entered[0], 'answered');
		await settle();
		expect(entered).toHaveLength(12);
		for (let round = 0; round < 100; round++) {
			window.leave(entered[round + 1], 'answered');
			await settle();
		}
		expect(window.peak).toBe(MAX_IN_FLIGHT);
		expect(entered.length - 101).toBe(MAX_IN_FLIGHT);
	});

	test('a 429 halves it once for the requests that were under way together; growth is then one a round trip', async () => {
		const window = new InFlight();
		const { entered } = await fill(window, 100);
		expect(entered).toHaveLength(10);
		// Ten requests under way answered 429: the window is 5, not 10 halved ten times.
		for (const place of entered.slice(0, 10)) window.leave(place, 'busy');
		await settle();
		expect(entered).toHaveLength(15);
		// An answer now adds about a fifth of a place (1 / window): five answers free five places
		// and the window is still below 6; the sixth makes it 6, and two go for it.
		for (const place of entered.slice(10, 15)) window.leave(place, 'answered');
		await settle();
		expect(entered).toHaveLength(20);
		window.leave(entered[15], 'answered');
		await settle();
		expect(entered).toHaveLength(22);
	});

	test("a Retry-After holds every request of the run, not only the one it answered; a stopped execution's request stops waiting", async () => {
		const window = new InFlight();
		const { entered } = await fill(window, 2);
		window.leave(entered[0], 'busy', 2_000);
		const stop = new AbortController();
		const held = window.enter(stop.signal);
		let answered: Place | false | undefined;
		void held.then((got) => (answered = got));
		await settle();
		expect(answered).toBeUndefined();
		stop.abort();
		expect(await held).toBe(false);
	});

	test("an answer far slower than the run's usual one halves the window, as a 429 does", async () => {
		// The clock is set by hand: what is checked is how the window reads the times, not a timing.
		const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
		try {
			const window = new InFlight();
			const { entered } = await fill(window, 100);
			now.mockReturnValue(1_000_100);
			// Five answers in 100 ms: the window is 15.
			for (const place of entered.slice(0, 5)) window.leave(place, 'answered');
			await settle();
			expect(entered).toHaveLength(20);
			// One in 2 s, three times the usual and a second more: the window halves to 7.
			now.mockReturnValue(1_002_000);
			window.leave(entered[5], 'answered');
			await settle();
			expect(entered).toHaveLength(20);
			for (const place of entered.slice(6, 14)) window.leave(place, 'answered');
			await settle();
			// Eight more as slow (sent before the cut: they neither cut again nor grow it): 6 under way, one more goes.
			expect(entered).toHaveLength(21);
		} finally {
			now.mockRestore();
		}
	});

	test('a failed connection frees its place without growing or halving the window', async () => {
		const window = new InFlight();
		const { entered } = await fill(window, 20);
		window.leave(entered[0], 'failed');
		await settle();
		expect(entered).toHaveLength(11);
	});
});
