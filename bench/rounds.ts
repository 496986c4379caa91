/** The benchmark's rounds: how a job's cases are run, and each case's median. */

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * A job's cases in `count` rounds, each round its cases one after another (so a busy
 * moment of the machine falls on all of them alike), and each case's median: one run alone swings
 * by a factor of two on these shared machines. The rounds of `running` (the runs in the running
 * n8n, beside the raw client's second pass) all come first, then those of `fresh` (each run a
 * process of its own): the fresh processes leave the running n8n idle for half a minute a round,
 * and V8 shrinks the young generation of a process idle that long (its memory reducer), which the
 * next run in it would pay for in collections while it grows again; an n8n that runs one workflow
 * after another keeps it. Round N's figures hold both kinds' Nth.
 */
export async function inRounds<Running extends string, Fresh extends string>(
	count: number,
	running: (round: number) => Promise<Record<Running, number>>,
	fresh: (round: number) => Promise<Record<Fresh, number>>,
): Promise<{
	medians: Record<Running | Fresh, number>;
	rounds: Array<Record<Running | Fresh, number>>;
}> {
	const runningRounds: Array<Record<Running, number>> = [];
	for (let round = 0; round < count; round++) runningRounds.push(await running(round));
	const rounds: Array<Record<Running | Fresh, number>> = [];
	for (let round = 0; round < count; round++)
		rounds.push({ ...runningRounds[round], ...(await fresh(round)) });
	const medians = {} as Record<Running | Fresh, number>;
	for (const series of Object.keys(rounds[0]) as Array<Running | Fresh>)
		medians[series] = median(rounds.map((figures) => figures[series]));
	return { medians, rounds };
}
