/* eslint-disable no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/** Return All: every item of a big dynamic list (List Item > Get Many), beside HTTP Request's pagination and the raw client's pages. */
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
import { profile, SIZES, wan } from '../options';
import { inRounds } from '../rounds';
import { refreshList, TOKEN } from '../sandboxApi';
import { fmt } from '../table';
import { LIST_ITEM_FIELDS, type returnAllWorkflows } from '../workflows';

export async function returnAllJob(
	bench: Bench,
	client: N8nClient,
	returnAll: ReturnType<typeof returnAllWorkflows>,
	returnAllList: number,
): Promise<void> {
	const { sandbox, host, figures } = bench;
	console.log(`Return All: ${fmt(SIZES.returnAll)}-item dynamic list ...`);
	const listUrl = `${bench.apiUrl}/v1/lists/${returnAllList}/items?Fields=${LIST_ITEM_FIELDS.join(',')}`;
	const pages = (pageSize: number, warm?: boolean) =>
		raw({ kind: 'pages', url: listUrl, pageSize, token: TOKEN, warm });
	let peakMiB: number | undefined;
	await refreshList(sandbox, returnAllList);
	await runOnceBefore(bench, client, returnAll.propRadar, returnAll.httpRequest);
	const { medians, rounds } = await inRounds(
		SIZES.rounds,
		async () => {
			await refreshList(sandbox, returnAllList);
			const propRadar = expectItems(
				'PropRadar Return All',
				await runInServer(bench, client, returnAll.propRadar),
				SIZES.returnAll,
			).ms;
			const httpRequest = expectItems(
				'HTTP Request pagination',
				await runInServer(bench, client, returnAll.httpRequest),
				SIZES.returnAll,
			).ms;
			const rawLimit500 = (await pages(500, true)).ms;
			const rawLimit1000 = (await pages(1000, true)).ms;
			return { propRadar, httpRequest, rawLimit500, rawLimit1000 };
		},
		async () => {
			await refreshList(sandbox, returnAllList);
			const fresh = expectItems(
				'PropRadar Return All, fresh',
				await runWorkflow(host, returnAll.propRadar),
				SIZES.returnAll,
			);
			peakMiB = Math.max(peakMiB ?? 0, fresh.peakMiB ?? 0) || undefined;
			return {
				propRadarFresh: fresh.ms,
				httpRequestFresh: expectItems(
					'HTTP Request pagination, fresh',
					await runWorkflow(host, returnAll.httpRequest),
					SIZES.returnAll,
				).ms,
				rawLimit500Fresh: (await pages(500)).ms,
				rawLimit1000Fresh: (await pages(1000)).ms,
			};
		},
	);
	const bestRaw = Math.min(medians.rawLimit500, medians.rawLimit1000);
	const bestRawFresh = Math.min(medians.rawLimit500Fresh, medians.rawLimit1000Fresh);
	// Over the link (issue 48): within 1.3 times the raw client.
	const most = wan ? 1.3 : 1.2;
	const target = (propRadar: number, httpRequest: number, raw: number) => ({
		ratio: propRadar / raw,
		met: propRadar / raw <= most && propRadar < httpRequest,
	});
	figures.rows.push({
		job: `Return All of a ${fmt(SIZES.returnAll)}-item dynamic list (List Item > Get Many)`,
		propRadarMs: medians.propRadar,
		httpRequestMs: medians.httpRequest,
		rawMs: bestRaw,
		rawNote: `${fmt(medians.rawLimit500)} ms at Limit 500, ${fmt(medians.rawLimit1000)} ms at Limit 1000`,
		...target(medians.propRadar, medians.httpRequest, bestRaw),
		ratioOf: 'PropRadar / raw at its best page',
		target: `<= ${most}, and below HTTP Request`,
		fresh: {
			propRadarMs: medians.propRadarFresh,
			httpRequestMs: medians.httpRequestFresh,
			rawNote: `${fmt(medians.rawLimit500Fresh)} ms at Limit 500, ${fmt(medians.rawLimit1000Fresh)} ms at Limit 1000`,
			...target(medians.propRadarFresh, medians.httpRequestFresh, bestRawFresh),
		},
		rounds,
	});
	figures.growth.push({
		job: 'Return All',
		size: SIZES.returnAll,
		ms: medians.propRadarFresh,
		peakMiB,
		msPer1000: (medians.propRadarFresh / SIZES.returnAll) * 1000,
	});
	if (profile) {
		await refreshList(sandbox, returnAllList);
		figures.profiles.push(
			`Return All, the PropRadar node: ${await profileRun(host, returnAll.propRadar, NODE_RUN)}`,
		);
	}
}
