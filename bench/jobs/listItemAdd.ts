/* eslint-disable no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * List Item > Add of every input item's PropID to a static list, beside the HTTP Request node's
 * PUT per item and the raw client's PUTs of 500 PropIDs (the node's requests, on kept connections).
 */
import { expectItems, raw, runInServer, runOnceBefore, runWorkflow, type Bench } from '../measure';
import type { N8nClient } from '../n8n';
import { SIZES } from '../options';
import { inRounds } from '../rounds';
import { propIds, TOKEN } from '../sandboxApi';
import { fmt } from '../table';
import type { listItemAddWorkflows } from '../workflows';
import { PAGE_LIMITS } from '../../nodes/PropRadar/shared/vocabulary';

// As the node sends them (PROP_IDS_PER_REQUEST in actions/listItem/add.operation.ts).
const PROP_IDS_PER_REQUEST = PAGE_LIMITS.properties.maxLimit;

export async function listItemAddJob(
	bench: Bench,
	client: N8nClient,
	add: ReturnType<typeof listItemAddWorkflows>,
	rawList: number,
): Promise<void> {
	const { host, figures } = bench;
	const size = SIZES.perItem;
	console.log(`List Item > Add: ${size} PropIDs to a static list ...`);
	const rawAdd = (warm: boolean) =>
		raw({
			kind: 'addItems',
			url: `${bench.apiUrl}/v1/lists/${rawList}/items`,
			propIds: propIds(size),
			chunk: PROP_IDS_PER_REQUEST,
			token: TOKEN,
			warm,
		});
	await runOnceBefore(bench, client, add.propRadar, add.httpRequest);
	const target = (propRadar: number, httpRequest: number) => ({
		ratio: httpRequest / propRadar,
		met: httpRequest / propRadar >= 1,
	});
	const { medians, rounds } = await inRounds(
		SIZES.rounds,
		async (): Promise<Record<string, number>> => ({
			propRadar: expectItems(
				'PropRadar List Item > Add',
				await runInServer(bench, client, add.propRadar),
				size,
			).ms,
			httpRequest: expectItems(
				'HTTP Request List Item > Add',
				await runInServer(bench, client, add.httpRequest),
				size,
			).ms,
			raw: (await rawAdd(true)).ms,
		}),
		async () => ({
			propRadarFresh: expectItems(
				'PropRadar List Item > Add, fresh',
				await runWorkflow(host, add.propRadar),
				size,
			).ms,
			httpRequestFresh: expectItems(
				'HTTP Request List Item > Add, fresh',
				await runWorkflow(host, add.httpRequest),
				size,
			).ms,
			rawFresh: (await rawAdd(false)).ms,
		}),
	);
	const requests = Math.ceil(size / PROP_IDS_PER_REQUEST);
	figures.rows.push({
		job: `${fmt(size)} input items -> List Item > Add of their PropIDs to a static list`,
		propRadarMs: medians.propRadar,
		httpRequestMs: medians.httpRequest,
		rawMs: medians.raw,
		rawNote: `${fmt(medians.raw)} ms, ${requests} PUT${requests === 1 ? '' : 's'} of up to ${PROP_IDS_PER_REQUEST} PropIDs one after another`,
		...target(medians.propRadar, medians.httpRequest),
		ratioOf: 'HTTP Request / PropRadar',
		target: '>= 1',
		fresh: {
			propRadarMs: medians.propRadarFresh,
			httpRequestMs: medians.httpRequestFresh,
			rawNote: `${fmt(medians.rawFresh)} ms`,
			...target(medians.propRadarFresh, medians.httpRequestFresh),
		},
		rounds,
	});
}
