/**
 * `npm run bench`: the sandbox's throughput, measured from a second process, next to a bare
 * `node:http` server answering the same JSON in the same run, printed as ratios. Figures, never
 * test assertions (these machines are noisy). Target: at least 3,000 simple reads per second, so
 * the sandbox is never the bottleneck of the node's own benchmarks.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { ACCOUNTS } from '../sandbox/accounts';
import { wallet } from '../sandbox/charges';
import { startSandbox } from '../sandbox/server';
import type { LoadJob, LoadResult } from './load';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const AUTH = { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' };

function load(job: LoadJob): Promise<LoadResult> {
	return new Promise((resolve, reject) => {
		const child = fork(join(__dirname, 'load.js'));
		child.once('message', (result) => resolve(result as LoadResult));
		child.once('error', reject);
		child.send(job);
	});
}

/** A bare server answering every request with the given bytes. */
async function bareServer(body: string): Promise<{ url: string; close(): void }> {
	const server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
			response.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: 0 });
	// The search case buys 500 properties per request: give the benchmark's account room for that.
	wallet(sandbox.ctx, ACCOUNTS[0]).balanceCents = Number.MAX_SAFE_INTEGER;
	const list = await fetch(`${sandbox.url}/v1/lists`, {
		method: 'POST',
		headers: AUTH,
		body: JSON.stringify({ ListName: 'bench', ListType: 'static' }),
	}).then((r) => r.json() as Promise<{ results: Array<{ ListID: number }> }>);
	const listId = list.results[0].ListID;
	const search = { path: '/v1/properties?Purchase=0&Limit=500&Fields=PropID,State,City,AVM', body: JSON.stringify({ Criteria: [{ name: 'State', value: ['OR', 'WA'] }] }) };
	// Warm the search index before measuring.
	await fetch(`${sandbox.url}${search.path}`, { method: 'POST', headers: AUTH, body: search.body });

	const cases = [
		{ name: 'simple read: GET /v1/lists/{id}', method: 'GET' as const, path: `/v1/lists/${listId}`, body: undefined },
		{ name: '500-row property search: POST /v1/properties', method: 'POST' as const, path: search.path.replace('Purchase=0', 'Purchase=1'), body: search.body },
	];
	console.log(`PropRadar sandbox benchmark: ${DURATION_SECONDS} s per case, ${CONNECTIONS} connections, load from a second process\n`);
	for (const benchCase of cases) {
		const sample = await fetch(`${sandbox.url}${benchCase.path}`, { method: benchCase.method, headers: AUTH, body: benchCase.body }).then((r) => r.text());
		const bare = await bareServer(sample);
		const job = { method: benchCase.method, headers: AUTH, body: benchCase.body, durationSeconds: DURATION_SECONDS, connections: CONNECTIONS };
		const bareResult = await load({ ...job, url: `${bare.url}${benchCase.path}` });
		const sandboxResult = await load({ ...job, url: `${sandbox.url}${benchCase.path}` });
		bare.close();
		console.log(benchCase.name);
		console.log(`  response size          ${(sample.length / 1024).toFixed(1)} KiB`);
		console.log(`  bare node:http         ${bareResult.requestsPerSecond.toFixed(0)} req/s (p99 ${bareResult.latencyP99Ms} ms)`);
		console.log(`  sandbox                ${sandboxResult.requestsPerSecond.toFixed(0)} req/s (p99 ${sandboxResult.latencyP99Ms} ms, non-2xx ${sandboxResult.non2xx}, errors ${sandboxResult.errors})`);
		console.log(`  ratio sandbox / bare   ${(sandboxResult.requestsPerSecond / bareResult.requestsPerSecond).toFixed(2)}\n`);
	}
	await importBatches(sandbox.url);
	await sandbox.close();
}

/**
 * The Import Record operation's default batch size: 10,000 records imported (Purchase=1) into the
 * sandbox with several batch sizes, one after another, as the node sends them.
 */
async function importBatches(url: string): Promise<void> {
	const records = Array.from({ length: 10_000 }, (_, i) => ({ Address: `${i + 1} Oak St`, City: 'Portland', State: 'OR', ZipFive: '97201' }));
	// Warm the sandbox's address index first, so that no batch size pays for building it.
	const warm = await fetch(`${url}/v1/lists`, { method: 'POST', headers: AUTH, body: JSON.stringify({ ListName: 'warm-up', ListType: 'import', ImportSource: 'api' }) }).then((r) => r.json() as Promise<{ results: Array<{ ListID: number }> }>);
	await fetch(`${url}/v1/lists/${warm.results[0].ListID}/import/items?Purchase=1`, { method: 'POST', headers: AUTH, body: JSON.stringify(records.slice(0, 1)) }).then((r) => r.arrayBuffer());
	console.log('import of 10,000 records, sequential batches (Import Record "Batch Size")');
	const baseline: number[] = [];
	for (const batchSize of [50, 100, 250, 500, 1000, 2500]) {
		const created = await fetch(`${url}/v1/lists`, { method: 'POST', headers: AUTH, body: JSON.stringify({ ListName: `batch ${batchSize}`, ListType: 'import', ImportSource: 'api' }) }).then((r) => r.json() as Promise<{ results: Array<{ ListID: number }> }>);
		const started = performance.now();
		for (let start = 0; start < records.length; start += batchSize) {
			const response = await fetch(`${url}/v1/lists/${created.results[0].ListID}/import/items?Purchase=1`, { method: 'POST', headers: AUTH, body: JSON.stringify(records.slice(start, start + batchSize)) });
			if (!response.ok) throw new Error(`import answered ${response.status}`);
			await response.arrayBuffer();
		}
		const seconds = (performance.now() - started) / 1000;
		baseline.push(seconds);
		console.log(`  batch ${String(batchSize).padStart(5)}   ${String(Math.ceil(records.length / batchSize)).padStart(4)} requests   ${seconds.toFixed(2)} s   ${(seconds / baseline[0]).toFixed(2)} x the time of batch 50`);
	}
}

main().catch((error: Error) => {
	console.error(error);
	process.exit(1);
});
