import { inRounds, median } from '../../bench/rounds';

describe("the benchmark's rounds", () => {
	it("runs every round in the running n8n before any in fresh processes, and gives each case's median", async () => {
		const order: string[] = [];
		const { medians, rounds } = await inRounds(
			3,
			async (round) => {
				order.push(`running ${round}`);
				return { node: [30, 10, 20][round], raw: 5 };
			},
			async (round) => {
				order.push(`fresh ${round}`);
				return { nodeFresh: 100 + round };
			},
		);
		expect(order).toEqual(['running 0', 'running 1', 'running 2', 'fresh 0', 'fresh 1', 'fresh 2']);
		expect(rounds).toEqual([
			{ node: 30, raw: 5, nodeFresh: 100 },
			{ node: 10, raw: 5, nodeFresh: 101 },
			{ node: 20, raw: 5, nodeFresh: 102 },
		]);
		expect(medians).toEqual({ node: 20, raw: 5, nodeFresh: 101 });
	});

	it('takes the mean of the two middle values of an even count', () => {
		expect(median([4, 1, 3, 2])).toBe(2.5);
	});
});
