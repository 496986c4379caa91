/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The sandbox on its own, so that it is never what is measured: the lists the other jobs read
 * (created and warmed here), its simple reads a second beside a bare node:http server's, and a
 * 1,000-item page of the big dynamic list beside one of a 1,000-item static list.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { RunningSandbox } from '../../sandbox/types';
import type { LoadJob } from '../load';
import { load } from '../measure';
import { SIZES } from '../options';
import {
	AUTH,
	createList,
	dynamicList,
	importList,
	propIds,
	refreshList,
	sandboxCall,
} from '../sandboxApi';
import { fmt, type Row } from '../table';
import { importRecords, LIST_ITEM_FIELDS } from '../workflows';

export interface SandboxFigures {
	simpleReadsPerSecond: number;
	bareServerReadsPerSecond: number;
	pageOfBigListMs: number;
	pageOf1000ListMs: number;
	bigListSize: number;
}

/** A bare server answering every request with the given bytes. */
async function bareServer(body: string): Promise<{ url: string; close(): void }> {
	const server = createHttpServer((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(200, {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(body),
			});
			response.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => server.close(),
	};
}

/** Its figures, and the lists it made: the Return All job's, and the growth job's by size. */
export async function sandboxJob(
	sandbox: RunningSandbox,
): Promise<{ figures: SandboxFigures; returnAllList: number; growthLists: Map<number, number> }> {
	const staticId = await createList(sandbox, { ListName: 'bench static 1000', ListType: 'static' });
	await sandboxCall(sandbox, 'PUT', `/v1/lists/${staticId}/items`, {
		Criteria: [{ name: 'PropID', value: propIds(1000) }],
	});
	const returnAllList = await dynamicList(sandbox, SIZES.returnAll);
	const growthLists = new Map<number, number>();
	for (const size of SIZES.growth)
		growthLists.set(
			size,
			size === SIZES.returnAll ? returnAllList : await dynamicList(sandbox, size),
		);
	// Warm what the first reads would otherwise build (the search index, the address index of imports).
	await refreshList(sandbox, returnAllList);
	const warm = await importList(sandbox, 'warm-up');
	await sandboxCall(sandbox, 'POST', `/v1/lists/${warm}/import/items?Purchase=1`, importRecords(1));

	const pageJob = (path: string): LoadJob => ({
		url: `${sandbox.url}${path}`,
		method: 'GET',
		headers: AUTH,
		durationSeconds: SIZES.loadSeconds,
		connections: 1,
	});
	const bigPage = await load(
		pageJob(
			`/v1/lists/${returnAllList}/items?Limit=1000&Start=${Math.max(0, SIZES.returnAll / 2 - 1000)}&Fields=${LIST_ITEM_FIELDS.join(',')}`,
		),
	);
	const smallPage = await load(
		pageJob(`/v1/lists/${staticId}/items?Limit=1000&Fields=${LIST_ITEM_FIELDS.join(',')}`),
	);
	const simple = await load({
		url: `${sandbox.url}/v1/lists/${staticId}`,
		method: 'GET',
		headers: AUTH,
		durationSeconds: SIZES.loadSeconds,
		connections: 10,
	});
	// The same answer from a bare node:http server on this machine at this moment: what the load allows at all.
	const bare = await bareServer(
		await (await fetch(`${sandbox.url}/v1/lists/${staticId}`, { headers: AUTH })).text(),
	);
	const bareReads = await load({
		url: bare.url,
		method: 'GET',
		headers: AUTH,
		durationSeconds: SIZES.loadSeconds,
		connections: 10,
	});
	bare.close();
	const figures: SandboxFigures = {
		simpleReadsPerSecond: simple.requestsPerSecond,
		bareServerReadsPerSecond: bareReads.requestsPerSecond,
		pageOfBigListMs: 1000 / bigPage.requestsPerSecond,
		pageOf1000ListMs: 1000 / smallPage.requestsPerSecond,
		bigListSize: SIZES.returnAll,
	};
	console.log(
		`sandbox: ${fmt(simple.requestsPerSecond)} simple reads/s (a bare node:http server: ${fmt(bareReads.requestsPerSecond)}/s); a 1,000-item page of the ${fmt(SIZES.returnAll)}-item dynamic list ${fmt(figures.pageOfBigListMs, 2)} ms, of a 1,000-item static list ${fmt(figures.pageOf1000ListMs, 2)} ms`,
	);
	return { figures, returnAllList, growthLists };
}

/** The table's last row: the big list's page beside the small one's. */
export const sandboxRow = (figures: SandboxFigures): Row => ({
	job: `Sandbox: a 1,000-item page of the ${fmt(SIZES.returnAll)}-item dynamic list vs of a 1,000-item static list`,
	propRadarMs: figures.pageOfBigListMs,
	rawMs: figures.pageOf1000ListMs,
	ratio: figures.pageOfBigListMs / figures.pageOf1000ListMs,
	ratioOf: 'big list page / 1,000-item list page',
	target: '<= 3',
	met: figures.pageOfBigListMs / figures.pageOf1000ListMs <= 3,
});

/** The sandbox's part of the benchmark's JSON. */
export const sandboxResult = (figures: SandboxFigures) => ({
	...figures,
	simpleReadsTarget: 3000,
	simpleReadsMet: figures.simpleReadsPerSecond >= 3000,
});
