/* eslint-disable no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/** Import: records imported and purchased in batches, beside HTTP Request, n8n's No Operation node and the raw client. */
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
import { importList, TOKEN } from '../sandboxApi';
import { fmt } from '../table';
import { importRecords, type BenchWorkflow, type importWorkflows } from '../workflows';

/** The import job's workflows: every run imports into lists of its own. */
export interface ImportJobWorkflows {
	/** Each round's pair in the running n8n, and in fresh processes. */
	imports: Array<ReturnType<typeof importWorkflows>>;
	freshImports: Array<ReturnType<typeof importWorkflows>>;
	/** The pair run once before the rounds. */
	importsBefore: ReturnType<typeof importWorkflows>;
	importN8nAlone: BenchWorkflow;
	profileImport: BenchWorkflow;
}

export async function importJob(
	bench: Bench,
	client: N8nClient,
	{ imports, freshImports, importsBefore, importN8nAlone, profileImport }: ImportJobWorkflows,
): Promise<void> {
	const { sandbox, host, figures } = bench;
	console.log(`Import: ${fmt(SIZES.importRecords)} records, Purchase ...`);
	let peakMiB: number | undefined;
	let rawRequests = 0;
	const rawImport = async (
		name: string,
		options: { quoteFirst?: boolean; warm?: boolean; newConnections?: boolean } = {},
	) =>
		raw({
			kind: 'import',
			url: `${bench.apiUrl}/v1/lists/${await importList(sandbox, name)}/import/items`,
			records: importRecords(SIZES.importRecords),
			batchSize: SIZES.batchSize,
			token: TOKEN,
			...options,
		});
	const target = (propRadar: number, raw: number) => ({
		ratio: propRadar / raw,
		met: propRadar / raw <= 1.5,
	});
	// Over the link the HTTP Request node is not run: it would open 10,000 connections at once.
	const withHttpRequest = !wan;
	await runOnceBefore(
		bench,
		client,
		importsBefore.propRadar,
		...(withHttpRequest ? [importsBefore.httpRequest!] : []),
		importN8nAlone,
	);
	const { medians, rounds } = await inRounds(
		SIZES.rounds,
		async (round): Promise<Record<string, number>> => {
			const propRadar = expectItems(
				'PropRadar Import',
				await runInServer(bench, client, imports[round].propRadar),
				SIZES.importRecords,
			).ms;
			const httpRequest = withHttpRequest
				? expectItems(
						'HTTP Request import',
						await runInServer(bench, client, imports[round].httpRequest!),
						SIZES.importRecords,
					).ms
				: undefined;
			const n8nAlone = expectItems(
				'No Operation import',
				await runInServer(bench, client, importN8nAlone),
				SIZES.importRecords,
			).ms;
			const plain = await rawImport(`bench raw ${round}`, { warm: true });
			rawRequests = plain.requests;
			const rawQuoteFirst = (
				await rawImport(`bench raw ${round} quoted`, { quoteFirst: true, warm: true })
			).ms;
			const rawNewConnections = (
				await rawImport(`bench raw ${round} new connections`, {
					quoteFirst: true,
					warm: true,
					newConnections: true,
				})
			).ms;
			return {
				propRadar,
				...(httpRequest === undefined ? {} : { httpRequest }),
				n8nAlone,
				raw: plain.ms,
				rawQuoteFirst,
				rawNewConnections,
			};
		},
		async (round): Promise<Record<string, number>> => {
			const fresh = expectItems(
				'PropRadar Import, fresh',
				await runWorkflow(host, freshImports[round].propRadar),
				SIZES.importRecords,
			);
			peakMiB = Math.max(peakMiB ?? 0, fresh.peakMiB ?? 0) || undefined;
			return {
				propRadarFresh: fresh.ms,
				...(withHttpRequest
					? {
							httpRequestFresh: expectItems(
								'HTTP Request import, fresh',
								await runWorkflow(host, freshImports[round].httpRequest!),
								SIZES.importRecords,
							).ms,
						}
					: {}),
				rawFresh: (await rawImport(`bench raw ${round} fresh`)).ms,
			};
		},
	);
	figures.rows.push({
		job: `Import ${fmt(SIZES.importRecords)} records, Purchase (batches of ${SIZES.batchSize})`,
		propRadarMs: medians.propRadar,
		httpRequestMs: medians.httpRequest,
		rawMs: medians.raw,
		rawNote: `${fmt(medians.raw)} ms, ${rawRequests} requests of ${SIZES.batchSize}; ${fmt(medians.rawQuoteFirst)} ms with the node's free quote of all ${fmt(SIZES.importRecords)} records first; ${fmt(medians.rawNewConnections)} ms with the quote first and a new connection for every request, as n8n's request helper sends the node's`,
		...target(medians.propRadar, medians.raw),
		ratioOf: 'PropRadar / raw, same batches',
		target: '<= 1.5',
		n8nAlone: {
			what: `The same ${fmt(SIZES.importRecords)} records through n8n's own No Operation node: what n8n itself takes for a node given them`,
			ms: medians.n8nAlone,
		},
		fresh: {
			propRadarMs: medians.propRadarFresh,
			httpRequestMs: medians.httpRequestFresh,
			rawNote: `${fmt(medians.rawFresh)} ms`,
			...target(medians.propRadarFresh, medians.rawFresh),
		},
		rounds,
	});
	figures.growth.push({
		job: 'Import',
		size: SIZES.importRecords,
		ms: medians.propRadarFresh,
		peakMiB,
		msPer1000: (medians.propRadarFresh / SIZES.importRecords) * 1000,
	});
	if (profile)
		figures.profiles.push(
			`Import, the PropRadar node: ${await profileRun(host, profileImport, NODE_RUN)}`,
		);
}
