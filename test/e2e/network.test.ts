/**
 * The node's connections in a real n8n (scripts/n8n-install.sh): one keep-alive pool, purchases
 * on kept connections of their own, n8n's SSRF protection, and the proxy n8n is told to use
 * (HTTP_PROXY). Between n8n and the sandbox sits the
 * engine tier's recording proxy, which counts connections and requests; beside it a forward proxy
 * that only opens tunnels (CONNECT, what undici's proxy agent asks for) to it and counts them.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';

import { importWorkflows, perItemWorkflows } from '../../bench/workflows';
import { startEngineSandbox, type EngineSandbox } from '../engine/harness';
import { api } from '../engine/helpers';
import * as n8n from '../../scripts/n8n-host';
import type { N8nHost } from '../../scripts/n8n-host';

jest.setTimeout(300_000);

const ITEMS = 120;
const WORKFLOW = 'PropRadarBnch001';
/** Import of 100 records in purchases of 10 (`importWorkflows` names its PropRadar workflow `${id}A`). */
const IMPORT_WORKFLOW = 'PropRadarNetImpA';
let importListId: number;

let sb: EngineSandbox;
let forwardProxy: Server;
let forwardProxyUrl: string;
let host: N8nHost;
let tunnels = 0;

beforeAll(async () => {
	sb = await startEngineSandbox();
	forwardProxy = createServer((_request, response) => response.writeHead(405).end());
	forwardProxy.on('connect', (request, client, head) => {
		tunnels++;
		const [hostname, port] = String(request.url).split(':');
		const tunnel = connect(Number(port), hostname, () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			tunnel.write(head);
			tunnel.pipe(client);
			client.pipe(tunnel);
		});
		tunnel.on('error', () => client.destroy());
		client.on('error', () => tunnel.destroy());
	});
	await new Promise<void>((resolve) => forwardProxy.listen(0, '127.0.0.1', resolve));
	forwardProxyUrl = `http://127.0.0.1:${(forwardProxy.address() as AddressInfo).port}`;
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', { ListName: 'network import', ListType: 'import', ImportSource: 'api' });
	importListId = created.body.results[0].ListID;
	host = await n8n.prepare({ sandboxUrl: sb.url, workflows: [perItemWorkflows(ITEMS, sb.url).propRadar, importWorkflows('PropRadarNetImp', { propRadar: importListId }, 100, 10, sb.url).propRadar] });
});

afterAll(async () => {
	forwardProxy?.closeAllConnections();
	await new Promise<void>((resolve) => (forwardProxy ? forwardProxy.close(() => resolve()) : resolve()));
	await sb?.close();
	if (host) rmSync(host.userFolder, { recursive: true, force: true });
});

beforeEach(() => {
	sb.requests.length = 0;
	tunnels = 0;
});

const withEnv = (env: Record<string, string>): N8nHost => ({ ...host, env: { ...host.env, ...env } });
type RunData = { data: { resultData: { runData: Record<string, Array<{ data: { main: unknown[][] } }>> } } };
const outputOf = (run: unknown) => (run as RunData).data.resultData.runData.Measured[0].data.main[0];

test(`${ITEMS} items of Property > Get go over at most 50 connections (the pool's bound), not one per item`, async () => {
	const before = sb.connections();
	const run = await n8n.execute(host, WORKFLOW);
	expect(outputOf(run)).toHaveLength(ITEMS);
	expect(sb.requests).toHaveLength(ITEMS);
	expect(sb.connections() - before).toBeGreaterThanOrEqual(1);
	expect(sb.connections() - before).toBeLessThanOrEqual(50);
});

test('an import\'s 10 purchases go on one or two kept connections that carry only purchases, not a new one each', async () => {
	const run = await n8n.execute(host, IMPORT_WORKFLOW);
	expect(outputOf(run)).toHaveLength(100);
	const purchases = sb.requests.filter((request) => request.query.get('Purchase') === '1');
	expect(purchases).toHaveLength(10);
	const connections = new Set(purchases.map((purchase) => purchase.connection));
	expect(connections.size).toBeLessThanOrEqual(2);
	expect(sb.requests.filter((request) => connections.has(request.connection))).toEqual(purchases);
});

test('n8n\'s SSRF protection blocks the sandbox on 127.0.0.1 before anything is sent, and lets it through when allowed', async () => {
	await expect(n8n.execute(withEnv({ N8N_SSRF_PROTECTION_ENABLED: 'true' }), WORKFLOW)).rejects.toThrow(/SSRF protection blocks PropRadar/);
	expect(sb.requests).toHaveLength(0);
	const run = await n8n.execute(withEnv({ N8N_SSRF_PROTECTION_ENABLED: 'true', N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' }), WORKFLOW);
	expect(outputOf(run)).toHaveLength(ITEMS);
	expect(sb.requests).toHaveLength(ITEMS);
});

test('requests go through the proxy set in HTTP_PROXY, and not when NO_PROXY names the host', async () => {
	// Every connection the recording proxy takes during the run comes out of one of the tunnels.
	let before = sb.connections();
	const run = await n8n.execute(withEnv({ HTTP_PROXY: forwardProxyUrl }), WORKFLOW);
	expect(outputOf(run)).toHaveLength(ITEMS);
	expect(sb.requests).toHaveLength(ITEMS);
	expect(tunnels).toBeGreaterThanOrEqual(1);
	expect(sb.connections() - before).toBe(tunnels);
	tunnels = 0;
	sb.requests.length = 0;
	before = sb.connections();
	await n8n.execute(withEnv({ HTTP_PROXY: forwardProxyUrl, NO_PROXY: '127.0.0.1' }), WORKFLOW);
	expect(sb.requests).toHaveLength(ITEMS);
	expect(tunnels).toBe(0);
	expect(sb.connections() - before).toBeGreaterThanOrEqual(1);
});
