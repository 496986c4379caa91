/* eslint-disable no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Per-item work with no batch in the API: Person > Get Owners with Preview Cost for every input
 * item, beside the HTTP Request node and the raw client at the node's most requests in flight.
 */
import { expectItems, raw, runInServer, runOnceBefore, runWorkflow, type Bench } from '../measure';
import type { N8nClient } from '../n8n';
import { SIZES } from '../options';
import { inRounds } from '../rounds';
import { propIds, TOKEN } from '../sandboxApi';
import { fmt } from '../table';
import type { getOwnersWorkflows } from '../workflows';
import { MAX_IN_FLIGHT } from '../../nodes/PropRadar/transport/run';

export async function getOwnersJob(
	bench: Bench,
	client: N8nClient,
	owners: ReturnType<typeof getOwnersWorkflows>,
): Promise<void> {
	const { host, figures } = bench;
	const size = SIZES.perItem;
	console.log(`Get Owners: ${size} items, Person > Get Owners, Preview Cost ...`);
	const urls = propIds(size).map((id) => `${bench.apiUrl}/v1/properties/${id}/persons?Purchase=0`);
	await runOnceBefore(bench, client, owners.propRadar, owners.httpRequest);
	// Issue 48: at most the HTTP Request node's time, with at most MAX_IN_FLIGHT requests under way.
	const target = (propRadar: number, httpRequest: number) => ({
		ratio: httpRequest / propRadar,
		met: httpRequest / propRadar >= 1,
	});
	const rawAtOnce = () =>
		raw({ kind: 'perItem', urls, concurrency: MAX_IN_FLIGHT, token: TOKEN, warm: true });
	const { medians, rounds } = await inRounds(
		SIZES.rounds,
		async (): Promise<Record<string, number>> => ({
			propRadar: expectItems(
				'PropRadar Get Owners',
				await runInServer(bench, client, owners.propRadar),
				size,
			).ms,
			httpRequest: expectItems(
				'HTTP Request Get Owners',
				await runInServer(bench, client, owners.httpRequest),
				size,
			).ms,
			rawConcurrent: (await rawAtOnce()).ms,
			rawNewConnections: (
				await raw({
					kind: 'perItem',
					urls,
					concurrency: MAX_IN_FLIGHT,
					token: TOKEN,
					warm: true,
					newConnections: true,
				})
			).ms,
		}),
		async () => ({
			propRadarFresh: expectItems(
				'PropRadar Get Owners, fresh',
				await runWorkflow(host, owners.propRadar),
				size,
			).ms,
			httpRequestFresh: expectItems(
				'HTTP Request Get Owners, fresh',
				await runWorkflow(host, owners.httpRequest),
				size,
			).ms,
			rawConcurrentFresh: (
				await raw({ kind: 'perItem', urls, concurrency: MAX_IN_FLIGHT, token: TOKEN })
			).ms,
		}),
	);
	figures.rows.push({
		job: `${fmt(size)} input items -> Person > Get Owners, Preview Cost (no request reads several)`,
		propRadarMs: medians.propRadar,
		httpRequestMs: medians.httpRequest,
		rawMs: medians.rawConcurrent,
		rawNote: `${fmt(medians.rawConcurrent)} ms at ${MAX_IN_FLIGHT} concurrent; ${fmt(medians.rawNewConnections)} ms at ${MAX_IN_FLIGHT} concurrent with a new connection for every request, as n8n's request helper sends the node's`,
		...target(medians.propRadar, medians.httpRequest),
		ratioOf: 'HTTP Request / PropRadar',
		target: `>= 1, at most ${MAX_IN_FLIGHT} requests in flight`,
		fresh: {
			propRadarMs: medians.propRadarFresh,
			httpRequestMs: medians.httpRequestFresh,
			rawNote: `${fmt(medians.rawConcurrentFresh)} ms at ${MAX_IN_FLIGHT} concurrent`,
			...target(medians.propRadarFresh, medians.httpRequestFresh),
		},
		rounds,
	});
}
