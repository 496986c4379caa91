/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The raw client of the benchmarks: plain `fetch` (Node's undici, one keep-alive connection pool),
 * run as a second process (`fork`) so that it does not share an event loop with the sandbox. It
 * does the same jobs the workflows do and answers with how long they took.
 */
import { Agent, fetch as undiciFetch } from 'undici';

export type RawJob = (
	| { kind: 'perItem'; urls: string[]; concurrency: number; token: string }
	| { kind: 'pages'; url: string; pageSize: number; token: string }
	/**
	 * `url` is the properties search: `propIds` POSTed in requests of `chunk` through its PropID
	 * criterion, all at once, as the node's Property > Get over many items reads them.
	 */
	| { kind: 'search'; url: string; propIds: string[]; chunk: number; token: string }
	/** `url` is a static list's items: its PropIDs PUT `chunk` a request, one request after another. */
	| { kind: 'addItems'; url: string; propIds: string[]; chunk: number; token: string }
	/**
	 * `url` is the import endpoint without `Purchase`. `quoteFirst`: a free quote of all the records
	 * before the batches, the one request the node must send first (its Max Cost is checked on it).
	 */
	| {
			kind: 'import';
			url: string;
			records: unknown[];
			batchSize: number;
			token: string;
			quoteFirst?: boolean;
	  }
) & {
	/**
	 * Runs the job once untimed first, free (an import's batches as quotes), so that the timed run
	 * has its connections open and its code compiled, as a running n8n has for a workflow it has
	 * run before. Without it, the timed run is the process's first, as a fresh `n8n execute` is.
	 */
	warm?: boolean;
	/**
	 * Every request on a new connection (an undici `Agent` of its own, closed after it), as n8n's
	 * request helper sends the node's requests: what the node's transport costs at best, where the
	 * other runs keep their connections.
	 */
	newConnections?: boolean;
};

export interface RawResult {
	ms: number;
	/** Records read or imported. */
	records: number;
	requests: number;
}

/** Set from the job: see `RawJob.newConnections`. */
let newConnections = false;

async function call(
	url: string,
	token: string,
	init: { method?: string; body?: string } = {},
): Promise<{ results?: unknown[] }> {
	const request = {
		...init,
		headers: {
			authorization: `Bearer ${token}`,
			accept: 'application/json',
			'content-type': 'application/json',
		},
	};
	const agent = newConnections ? new Agent({ pipelining: 0 }) : undefined;
	try {
		const response = agent
			? await undiciFetch(url, { ...request, dispatcher: agent })
			: await fetch(url, request);
		if (!response.ok)
			throw new Error(
				`${init.method ?? 'GET'} ${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
			);
		return (await response.json()) as { results?: unknown[] };
	} finally {
		await agent?.close();
	}
}

async function perItem(urls: string[], concurrency: number, token: string): Promise<RawResult> {
	let next = 0;
	let records = 0;
	const work = async () => {
		while (next < urls.length) {
			const url = urls[next++];
			records += (await call(url, token)).results?.length ?? 0;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, work));
	return { ms: 0, records, requests: urls.length };
}

async function pages(url: string, pageSize: number, token: string): Promise<RawResult> {
	const all: unknown[] = [];
	let requests = 0;
	for (let start = 0; ; start += pageSize) {
		const page =
			(await call(`${url}${url.includes('?') ? '&' : '?'}Start=${start}&Limit=${pageSize}`, token))
				.results ?? [];
		requests++;
		all.push(...page);
		if (page.length < pageSize) break;
	}
	return { ms: 0, records: all.length, requests };
}

async function search(
	url: string,
	propIds: string[],
	chunk: number,
	token: string,
): Promise<RawResult> {
	const chunks: string[][] = [];
	for (let start = 0; start < propIds.length; start += chunk)
		chunks.push(propIds.slice(start, start + chunk));
	const answers = await Promise.all(
		chunks.map((ids) =>
			call(`${url}${url.includes('?') ? '&' : '?'}Limit=${ids.length}`, token, {
				method: 'POST',
				body: JSON.stringify({ Criteria: [{ name: 'PropID', value: ids }] }),
			}),
		),
	);
	const records = answers.reduce((sum, answer) => sum + (answer.results?.length ?? 0), 0);
	return { ms: 0, records, requests: chunks.length };
}

async function addItems(
	url: string,
	propIds: string[],
	chunk: number,
	token: string,
): Promise<RawResult> {
	let requests = 0;
	for (let start = 0; start < propIds.length; start += chunk) {
		await call(url, token, {
			method: 'PUT',
			body: JSON.stringify({
				Criteria: [{ name: 'PropID', value: propIds.slice(start, start + chunk) }],
			}),
		});
		requests++;
	}
	return { ms: 0, records: propIds.length, requests };
}

async function importBatches(
	url: string,
	records: unknown[],
	batchSize: number,
	token: string,
	quoteFirst: boolean,
	purchase = true,
): Promise<RawResult> {
	let imported = 0;
	let requests = 0;
	if (quoteFirst) {
		await call(`${url}?Purchase=0`, token, { method: 'POST', body: JSON.stringify(records) });
		requests++;
	}
	for (let start = 0; start < records.length; start += batchSize) {
		imported +=
			(
				await call(`${url}?Purchase=${purchase ? 1 : 0}`, token, {
					method: 'POST',
					body: JSON.stringify(records.slice(start, start + batchSize)),
				})
			).results?.length ?? 0;
		requests++;
	}
	return { ms: 0, records: imported, requests };
}

function run(job: RawJob, purchase: boolean): Promise<RawResult> {
	if (job.kind === 'perItem') return perItem(job.urls, job.concurrency, job.token);
	if (job.kind === 'pages') return pages(job.url, job.pageSize, job.token);
	if (job.kind === 'search') return search(job.url, job.propIds, job.chunk, job.token);
	if (job.kind === 'addItems') return addItems(job.url, job.propIds, job.chunk, job.token);
	return importBatches(
		job.url,
		job.records,
		job.batchSize,
		job.token,
		job.quoteFirst === true,
		purchase,
	);
}

/** Asks the benchmark to collect the sandbox's garbage (see `collectSandbox` in run.ts), and waits until it has. */
function sandboxCollected(): Promise<void> {
	return new Promise((resolve) => {
		process.once('message', () => resolve());
		process.send!({ ready: true });
	});
}

process.once('message', (job: RawJob) => {
	newConnections = job.newConnections === true;
	let started = 0;
	const done = (job.warm ? run(job, false) : Promise.resolve()).then(sandboxCollected).then(() => {
		started = performance.now();
		return run(job, true);
	});
	done.then(
		(result) =>
			process.send!({ ...result, ms: performance.now() - started }, () => process.exit(0)),
		(error: Error) => process.send!({ error: error.message }, () => process.exit(1)),
	);
});
