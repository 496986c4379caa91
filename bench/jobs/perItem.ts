/* eslint-disable no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/** Per-item work: Property > Get with Preview Cost for every input item, beside HTTP Request, Edit Fields and the raw client. */
import {
	expectItems,
	NODE_RUN,
	profileRun,
	raw,
	runInServer,
	runOnceBefore,
	runWorkflow,
	type Bench,
} from '../measure';
import type { N8nClient } from '../n8n';
import { CONCURRENT_RAW, profile, SIZES, wan } from '../options';
import { inRounds } from '../rounds';
import { propIds, TOKEN } from '../sandboxApi';
import { fmt } from '../table';
import type { perItemWorkflows } from '../workflows';

/** The raw client's batched reads in a row's raw-client cell, with the node's ratio to them. */
const batchedNote = (rawBatched: number, propRadar: number) =>
	`${fmt(rawBatched)} ms batched as the node reads (500 a request, all at once; PropRadar / raw batched ${fmt(propRadar / rawBatched, 2)})`;

export async function perItemJob(
	bench: Bench,
	client: N8nClient,
	perItem: ReturnType<typeof perItemWorkflows>,
): Promise<void> {
	const { host, figures } = bench;
	console.log(`per-item: ${SIZES.perItem} items, Property > Get, Preview Cost ...`);
	const urls = propIds(SIZES.perItem).map((id) => `${bench.apiUrl}/v1/properties/${id}?Purchase=0`);
	await runOnceBefore(bench, client, perItem.propRadar, perItem.httpRequest, perItem.editFields);
	// The node reads many items through the search, 500 PropIDs a request: the raw client does the
	// same reads, all at once on kept connections.
	const search = {
		kind: 'search' as const,
		url: `${bench.apiUrl}/v1/properties?Purchase=0&Fields=PropID,Overview`,
		propIds: propIds(SIZES.perItem),
		chunk: 500,
		token: TOKEN,
	};
	// Over the link (issue 48) the node is to take at most a fifth of the HTTP Request node's time,
	// and at most 1.5 times the raw client's batched reads.
	const least = wan ? 5 : 2;
	const mostOfBatched = 1.5;
	const target = (propRadar: number, httpRequest: number, rawBatched: number) => ({
		ratio: httpRequest / propRadar,
		met: httpRequest / propRadar >= least && (!wan || propRadar / rawBatched <= mostOfBatched),
	});
	const { medians, rounds } = await inRounds(
		SIZES.rounds,
		async (): Promise<Record<string, number>> => ({
			propRadar: expectItems(
				'PropRadar per-item',
				await runInServer(bench, client, perItem.propRadar),
				SIZES.perItem,
			).ms,
			httpRequest: expectItems(
				'HTTP Request per-item',
				await runInServer(bench, client, perItem.httpRequest),
				SIZES.perItem,
			).ms,
			editFields: expectItems(
				'Edit Fields per-item',
				await runInServer(bench, client, perItem.editFields),
				SIZES.perItem,
			).ms,
			// One request after another over the link would take minutes (two round trips an item).
			...(wan
				? {}
				: {
						rawSequential: (
							await raw({ kind: 'perItem', urls, concurrency: 1, token: TOKEN, warm: true })
						).ms,
					}),
			rawConcurrent: (
				await raw({ kind: 'perItem', urls, concurrency: CONCURRENT_RAW, token: TOKEN, warm: true })
			).ms,
			rawBatched: (await raw({ ...search, warm: true })).ms,
			rawBatchedNewConnections: (await raw({ ...search, warm: true, newConnections: true })).ms,
		}),
		async () => ({
			propRadarFresh: expectItems(
				'PropRadar per-item, fresh',
				await runWorkflow(host, perItem.propRadar),
				SIZES.perItem,
			).ms,
			httpRequestFresh: expectItems(
				'HTTP Request per-item, fresh',
				await runWorkflow(host, perItem.httpRequest),
				SIZES.perItem,
			).ms,
			rawConcurrentFresh: (
				await raw({ kind: 'perItem', urls, concurrency: CONCURRENT_RAW, token: TOKEN })
			).ms,
			rawBatchedFresh: (await raw(search)).ms,
		}),
	);
	figures.rows.push({
		job: `${fmt(SIZES.perItem)} input items -> Property > Get, Preview Cost`,
		propRadarMs: medians.propRadar,
		httpRequestMs: medians.httpRequest,
		rawMs: medians.rawConcurrent,
		rawNote: `${wan ? '' : `${fmt(medians.rawSequential)} ms sequential, `}${fmt(medians.rawConcurrent)} ms at ${CONCURRENT_RAW} concurrent; ${batchedNote(medians.rawBatched, medians.propRadar)}; ${fmt(medians.rawBatchedNewConnections)} ms batched on a new connection a request, as n8n's helper sends`,
		...target(medians.propRadar, medians.httpRequest, medians.rawBatched),
		ratioOf: 'HTTP Request / PropRadar',
		target: wan ? `>= ${least}, and PropRadar / raw batched <= ${mostOfBatched}` : `>= ${least}`,
		n8nAlone: {
			what: `The same ${fmt(SIZES.perItem)} items through n8n's own Edit Fields node, the same one expression per item and no request: what n8n itself takes`,
			ms: medians.editFields,
		},
		fresh: {
			propRadarMs: medians.propRadarFresh,
			httpRequestMs: medians.httpRequestFresh,
			rawNote: `${fmt(medians.rawConcurrentFresh)} ms at ${CONCURRENT_RAW} concurrent; ${batchedNote(medians.rawBatchedFresh, medians.propRadarFresh)}`,
			...target(medians.propRadarFresh, medians.httpRequestFresh, medians.rawBatchedFresh),
		},
		rounds,
	});
	if (profile) {
		figures.profiles.push(
			`per-item, the PropRadar node: ${await profileRun(host, perItem.propRadar, NODE_RUN)}`,
		);
		figures.profiles.push(
			`per-item, the HTTP Request node: ${await profileRun(host, perItem.httpRequest, [/HttpRequestV3\.node\.js execute$/, /nodes-base\/dist\/nodes\/HttpRequest\//])}`,
		);
	}
}
