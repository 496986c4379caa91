/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { spawn, type ChildProcess } from 'node:child_process';

import { connectCollector, inspectOption, type Collector } from '../../bench/collector';

/**
 * The benchmark's collection of n8n's heap between timed runs, against a Node process of its own
 * started as the benchmark starts n8n (`--inspect` on loopback): the garbage is collected, and
 * V8's young generation is left at the size the process's work grew it to, as in an n8n that has
 * been running (a low-memory collection shrinks it to 1 MB, which the next run pays for).
 */

/** Grows the young generation with short-lived objects, keeps 500,000 objects until told to drop them, and reports its heap. */
const TARGET = `
const v8 = require('v8');
const space = (name) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name);
for (let round = 0; round < 4; round++) { let a = []; for (let i = 0; i < 1e6; i++) { a.push({ i }); if (a.length > 1e5) a = []; } }
let kept = []; for (let i = 0; i < 5e5; i++) kept.push({ i, text: 'x' + i });
process.on('message', (message) => {
	if (message === 'drop') kept = null;
	if (message === 'exit') process.exit(0);
	process.send({ youngGeneration: space('new_space').space_size, oldUsed: space('old_space').space_used_size });
});
process.send({ url: require('inspector').url() });
`;

type Heap = { youngGeneration: number; oldUsed: number };

describe("the benchmark's collection of n8n's heap", () => {
	let target: ChildProcess;
	let collector: Collector;
	const next = <T>() =>
		new Promise<T>((resolve) => target.once('message', (message) => resolve(message as T)));
	const heap = (message: 'drop' | 'report') => {
		const answer = next<Heap>();
		target.send(message);
		return answer;
	};

	beforeAll(async () => {
		target = spawn(process.execPath, [inspectOption(0), '-e', TARGET], {
			stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
		});
		const { url } = await next<{ url: string }>();
		collector = await connectCollector(Number(new URL(url).port));
	});

	afterAll(() => {
		collector?.close();
		target?.send('exit');
	});

	it('collects the garbage and leaves the young generation as the process grew it', async () => {
		const before = await heap('drop');
		expect(before.youngGeneration).toBeGreaterThanOrEqual(8 * 1024 * 1024);

		await collector.collect();
		const after = await heap('report');

		expect(collector.collections).toBe(1);
		// The 500,000 objects dropped (some tens of MB) are gone.
		expect(after.oldUsed).toBeLessThan(before.oldUsed - 10 * 1024 * 1024);
		expect(after.youngGeneration).toBe(before.youngGeneration);
	});
});
