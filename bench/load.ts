/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The load generator of the benchmarks, run as a second process (`fork`) so that the server under
 * test has the main process to itself. Receives one job over IPC, answers with autocannon's figures.
 */
import autocannon from 'autocannon';

export interface LoadJob {
	url: string;
	method: 'GET' | 'POST';
	headers: Record<string, string>;
	body?: string;
	durationSeconds: number;
	connections: number;
}

export interface LoadResult {
	requestsPerSecond: number;
	latencyP99Ms: number;
	non2xx: number;
	errors: number;
}

process.on('message', (job: LoadJob) => {
	autocannon(
		{
			url: job.url,
			method: job.method,
			headers: job.headers,
			body: job.body,
			duration: job.durationSeconds,
			connections: job.connections,
		},
		(error, result) => {
			if (error) throw error;
			const answer: LoadResult = {
				requestsPerSecond: result.requests.average,
				latencyP99Ms: result.latency.p99,
				non2xx: result.non2xx,
				errors: result.errors,
			};
			process.send!(answer, () => process.exit(0));
		},
	);
});
