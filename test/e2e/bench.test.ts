/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * `npm run bench` at tiny sizes (`--smoke`), so that the benchmark cannot rot: every job runs in
 * the real n8n next to the HTTP Request node and the raw client and gives a figure, the trigger's
 * deliveries all arrive once, and the table and JSON are written. No figure is asserted: these
 * machines are noisy, and figures belong to the benchmark. The two tests run side by side: each
 * runs the benchmark in its own process with its own sandbox and n8n, on ports the system picks.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

jest.setTimeout(900_000);

const ROOT = join(__dirname, '..', '..');

interface BenchResult {
	rows: Array<{
		job: string;
		propRadarMs: number;
		httpRequestMs?: number;
		rawMs?: number;
		ratio: number;
		n8nAlone?: { what: string; ms: number };
		fresh?: { propRadarMs: number; httpRequestMs: number; ratio: number };
		rounds?: unknown[];
	}>;
	sandbox: { simpleReadsPerSecond: number; bareServerReadsPerSecond: number };
	trigger: {
		deliveries: number;
		executions: number;
		lost: number;
		duplicated: number;
		p50Ms: number;
		p95Ms: number;
		deliveriesPerSecond: number;
	};
	webhookNode: {
		deliveries: number;
		executions: number;
		lost: number;
		duplicated: number;
		deliveriesPerSecond: number;
	};
	engineSettings?: Array<{
		name: string;
		trigger: BenchResult['webhookNode'];
		webhookNode: BenchResult['webhookNode'];
	}>;
	queueMode?: { trigger: BenchResult['webhookNode']; webhookNode: BenchResult['webhookNode'] };
	profile?: string;
	rounds: number;
	collectionsBeforeRuns?: number;
	sandboxCollections?: number;
	growth: Array<{ job: string; size: number; ms: number; peakMiB?: number }>;
}

/** `bench/run.js --smoke` with the arguments given: what it printed and the JSON it wrote. */
async function smokeRun(...args: string[]): Promise<{ stdout: string; result: BenchResult }> {
	const dir = mkdtempSync(join(tmpdir(), 'propradar-bench-smoke-'));
	try {
		const out = join(dir, 'bench.json');
		const env = { ...process.env };
		delete env.NODE_ENV;
		const stdout = await new Promise<string>((resolve, reject) => {
			execFile(
				process.execPath,
				[join(ROOT, 'build', 'bench', 'run.js'), '--smoke', '--out', out, ...args],
				{ cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 },
				(error, output, stderr) => {
					if (error)
						reject(new Error(`${error.message}\n${stderr.slice(-3000)}\n${output.slice(-3000)}`));
					else resolve(output);
				},
			);
		});
		return { stdout, result: JSON.parse(readFileSync(out, 'utf8')) as BenchResult };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

test.concurrent(
	'the benchmark runs every job in a real n8n and writes its table as JSON',
	async () => {
		const { stdout, result } = await smokeRun();
		expect(stdout).toContain(
			'| job | PropRadar node | HTTP Request node | raw client (fetch) | ratio | target | met |',
		);
		expect(result.rows.map((row) => row.job)).toEqual([
			expect.stringContaining('Property > Get'),
			expect.stringContaining('Person > Get Owners'),
			expect.stringContaining('List Item > Add'),
			expect.stringContaining('Return All'),
			expect.stringContaining('Import'),
			expect.stringContaining('Sandbox: a 1,000-item page'),
		]);
		for (const row of result.rows) {
			expect(row.propRadarMs).toBeGreaterThan(0);
			expect(Number.isFinite(row.ratio)).toBe(true);
		}
		expect(result.rows.slice(0, 5).every((row) => row.httpRequestMs! > 0 && row.rawMs! > 0)).toBe(
			true,
		);
		// Those five timed in the running n8n, and again each in a fresh `n8n execute`.
		for (const row of result.rows.slice(0, 5)) {
			expect(row.fresh).toEqual({
				propRadarMs: expect.any(Number),
				httpRequestMs: expect.any(Number),
				rawNote: expect.stringMatching(/\d ms/),
				ratio: expect.any(Number),
				met: expect.any(Boolean),
			});
			expect(row.fresh!.propRadarMs > 0 && row.fresh!.httpRequestMs > 0).toBe(true);
		}
		// n8n's own nodes given the same input without a request: Edit Fields beside per-item, No Operation beside Import.
		expect(result.rows.slice(0, 5).map((row) => row.n8nAlone?.what)).toEqual([
			expect.stringContaining("n8n's own Edit Fields node"),
			undefined,
			undefined,
			undefined,
			expect.stringContaining("n8n's own No Operation node"),
		]);
		expect(result.rows[4].n8nAlone!.ms).toBeGreaterThanOrEqual(0);
		expect(stdout).toContain("| The same 100 records through n8n's own No Operation node");
		expect(stdout).toContain('Their first rows are runs in the running n8n');
		// A full collection of n8n's heap before each of those runs: at least the eleven timed ones (three per-item, two each of Get Owners, List Item > Add, Return All and Import).
		expect(result.collectionsBeforeRuns).toBeGreaterThanOrEqual(11);
		expect(stdout).toContain("Before each run, n8n's heap had a full garbage collection");
		// And of the sandbox's, before each of those and before every raw client's and fresh process's timed run as well.
		expect(result.sandboxCollections).toBeGreaterThan(result.collectionsBeforeRuns! + 7);
		expect(stdout).toContain(
			"The sandbox's heap, in the benchmark's own process, was fully collected before every timed run of the node or the raw client",
		);
		expect(
			stdout.match(/\| The same, each workflow run in a fresh `n8n execute` process/g),
		).toHaveLength(5);
		expect(result.sandbox.simpleReadsPerSecond).toBeGreaterThan(0);
		// Every delivery executed once: the trigger, then n8n's own Webhook node with the same follow-up
		// side by side, then both again in an n8n started with each setting of its expression engine
		// (isolates kept but built from a compiled bundle and taken lazily; no isolate), and in queue
		// mode (a webhook process answering, a worker executing). A failure shows the run's whole
		// figures (what a duplicate's posts looked like too).
		expect(result.engineSettings?.map((run) => run.name)).toEqual(['isolates', 'legacy']);
		expect(result.queueMode).toEqual({
			trigger: expect.any(Object),
			webhookNode: expect.any(Object),
		});
		const runs = [
			result.trigger,
			result.webhookNode,
			...(result.engineSettings ?? []).flatMap((run) => [run.trigger, run.webhookNode]),
			result.queueMode!.trigger,
			result.queueMode!.webhookNode,
		];
		for (const run of runs) {
			expect(run).toEqual(
				expect.objectContaining({ lost: 0, duplicated: 0, executions: run?.deliveries }),
			);
			expect(run!.deliveriesPerSecond).toBeGreaterThan(0);
		}
		expect(stdout).toContain("behind n8n's own Webhook node");
		expect(stdout).toContain(
			'| Trigger, n8n started with `N8N_EXPRESSION_ENGINE_COMPILE_CACHE=true` and `N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true`',
		);
		expect(stdout).toContain('| Trigger, n8n started with `N8N_EXPRESSION_ENGINE=legacy`');
		expect(stdout).toContain('| Trigger, n8n in queue mode');
		expect(result.growth.map((g) => `${g.job} ${g.size}`)).toEqual([
			'Import 100',
			'Import 1000',
			'Return All 100',
			'Return All 1000',
		]);
		expect(result.growth.every((g) => g.ms > 0 && (g.peakMiB ?? 0) > 0)).toBe(true);
	},
);

test.concurrent(
	'--only runs just the jobs named, --rounds as many rounds as asked, and --profile says where the node spends its time',
	async () => {
		const { result } = await smokeRun('--only', 'returnAll', '--profile', '--rounds', '2');
		expect(result.rows.map((row) => row.job)).toEqual([
			expect.stringContaining('Return All'),
			expect.stringContaining('Sandbox: a 1,000-item page'),
		]);
		expect(result.rounds).toBe(2);
		expect(result.rows[0].rounds).toHaveLength(2);
		expect(result.trigger.deliveries).toBeUndefined();
		expect(result.engineSettings).toBeUndefined();
		expect(result.queueMode).toBeUndefined();
		expect(result.profile).toContain('Return All, the PropRadar node:');
		expect(result.profile).toMatch(/by category \(self time\):\n\s+\d+ ms/);
	},
);
