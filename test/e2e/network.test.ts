/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The node's requests in a real n8n (scripts/n8n-install.sh), all made through n8n's own request
 * helper: a connection for each, n8n's SSRF protection, and the proxy n8n is told to use
 * (HTTP_PROXY). Between n8n and the sandbox sits the engine tier's recording proxy, which counts
 * connections and requests; beside it a forward proxy that counts the requests it forwards (an
 * http:// address is asked for in absolute form, as n8n's proxy agent does, not through CONNECT).
 */
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';

import { getOwnersWorkflows, importWorkflows } from '../../bench/workflows';
import { startEngineSandbox, type EngineSandbox } from '../support/harness';
import { api } from '../support/helpers';
import * as n8n from '../../scripts/n8n-host';
import type { N8nHost } from '../../scripts/n8n-host';

jest.setTimeout(300_000);

const ITEMS = 120;
/** Person > Get Owners, Preview Cost: one request per item (Property > Get over several items is batched). */
const WORKFLOW = 'PropRadarBnch004';
/** Import of 100 records in purchases of 10 (`importWorkflows` names its PropRadar workflow `${id}A`). */
const IMPORT_WORKFLOW = 'PropRadarNetImpA';
let importListId: number;

let sb: EngineSandbox;
let forwardProxy: Server;
let forwardProxyUrl: string;
let host: N8nHost;
let forwarded = 0;

beforeAll(async () => {
	sb = await startEngineSandbox();
	forwardProxy = createServer((request, response) => {
		forwarded++;
		const target = new URL(String(request.url));
		const onward = forward(
			target,
			{ method: request.method, headers: request.headers },
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		onward.on('error', () => response.destroy());
		request.pipe(onward);
	});
	await new Promise<void>((resolve) => forwardProxy.listen(0, '127.0.0.1', resolve));
	forwardProxyUrl = `http://127.0.0.1:${(forwardProxy.address() as AddressInfo).port}`;
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: 'network import',
		ListType: 'import',
		ImportSource: 'api',
	});
	importListId = created.body.results[0].ListID;
	host = await n8n.prepare({
		sandboxUrl: sb.url,
		workflows: [
			getOwnersWorkflows(ITEMS, sb.url).propRadar,
			importWorkflows('PropRadarNetImp', { propRadar: importListId }, 100, 10, sb.url).propRadar,
		],
	});
});

afterAll(async () => {
	forwardProxy?.closeAllConnections();
	await new Promise<void>((resolve) =>
		forwardProxy ? forwardProxy.close(() => resolve()) : resolve(),
	);
	await sb?.close();
	if (host) rmSync(host.userFolder, { recursive: true, force: true });
});

beforeEach(() => {
	sb.requests.length = 0;
	forwarded = 0;
});

const withEnv = (env: Record<string, string>): N8nHost => ({
	...host,
	env: { ...host.env, ...env },
});
type RunData = {
	data: { resultData: { runData: Record<string, Array<{ data: { main: unknown[][] } }>> } };
};
const outputOf = (run: unknown) =>
	(run as RunData).data.resultData.runData.Measured[0].data.main[0];

test(`${ITEMS} items of Person > Get Owners: each request on a connection of its own, as n8n's request helper makes them`, async () => {
	const before = sb.connections();
	const run = await n8n.execute(host, WORKFLOW);
	expect(outputOf(run)).toHaveLength(ITEMS);
	expect(sb.requests).toHaveLength(ITEMS);
	expect(new Set(sb.requests.map((request) => request.connection)).size).toBe(ITEMS);
	expect(sb.connections() - before).toBe(ITEMS);
});

test("an import's 10 purchases each go on a connection that carries nothing else", async () => {
	const run = await n8n.execute(host, IMPORT_WORKFLOW);
	expect(outputOf(run)).toHaveLength(100);
	const purchases = sb.requests.filter((request) => request.query.get('Purchase') === '1');
	expect(purchases).toHaveLength(10);
	const connections = new Set(purchases.map((purchase) => purchase.connection));
	expect(connections.size).toBe(10);
	expect(sb.requests.filter((request) => connections.has(request.connection))).toEqual(purchases);
});

test("n8n's SSRF protection blocks the sandbox on 127.0.0.1 before anything is sent, and lets it through when allowed", async () => {
	await expect(
		n8n.execute(withEnv({ N8N_SSRF_PROTECTION_ENABLED: 'true' }), WORKFLOW),
	).rejects.toThrow(/SSRF protection blocks PropRadar/);
	expect(sb.requests).toHaveLength(0);
	const run = await n8n.execute(
		withEnv({ N8N_SSRF_PROTECTION_ENABLED: 'true', N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' }),
		WORKFLOW,
	);
	expect(outputOf(run)).toHaveLength(ITEMS);
	expect(sb.requests).toHaveLength(ITEMS);
});

test('requests go through the proxy set in HTTP_PROXY, and not when NO_PROXY names the host', async () => {
	const run = await n8n.execute(withEnv({ HTTP_PROXY: forwardProxyUrl }), WORKFLOW);
	expect(outputOf(run)).toHaveLength(ITEMS);
	expect(sb.requests).toHaveLength(ITEMS);
	expect(forwarded).toBe(ITEMS);
	forwarded = 0;
	sb.requests.length = 0;
	await n8n.execute(withEnv({ HTTP_PROXY: forwardProxyUrl, NO_PROXY: '127.0.0.1' }), WORKFLOW);
	expect(sb.requests).toHaveLength(ITEMS);
	expect(forwarded).toBe(0);
});
