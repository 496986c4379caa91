/**
 * The node's connections in a real n8n (scripts/n8n-install.sh): one keep-alive pool, n8n's SSRF
 * protection, and the proxy n8n is told to use (HTTP_PROXY). Between n8n and the sandbox sits a
 * small server that counts connections and requests, and also serves as the forward proxy (its
 * tunnels lead back into itself, so it sees which requests came through one).
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';

import { perItemWorkflows } from '../../bench/workflows';
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import * as n8n from '../../scripts/n8n-host';
import type { N8nHost } from '../../scripts/n8n-host';

jest.setTimeout(300_000);

const ITEMS = 120;
const WORKFLOW = 'PropRadarBnch001';

let sandbox: RunningSandbox;
let server: Server;
let proxyUrl: string;
let host: N8nHost;
const seen = { connections: 0, requests: 0, viaProxy: 0 };
/** Local ports of the proxy's tunnels into the server: a request from one of them came through the proxy. */
const tunnelPorts = new Set<number>();

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	server = createServer(async (request, response) => {
		seen.requests++;
		if (tunnelPorts.has(request.socket.remotePort ?? 0)) seen.viaProxy++;
		const target = new URL(request.url ?? '/', 'http://proxy');
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(request.headers)) {
			if (typeof value === 'string' && !['host', 'connection', 'content-length', 'proxy-connection'].includes(name)) headers[name] = value;
		}
		const upstream = await fetch(`${sandbox.url}${target.pathname}${target.search}`, {
			method: request.method,
			headers,
			body: ['GET', 'HEAD'].includes(request.method ?? 'GET') ? undefined : Buffer.concat(chunks),
		});
		response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
		response.end(await upstream.text());
	});
	server.on('connection', () => seen.connections++);
	// As a forward proxy: undici's proxy agent opens a tunnel (CONNECT) to the target.
	server.on('connect', (request, client, head) => {
		const [hostname, port] = String(request.url).split(':');
		const tunnel = connect(Number(port), hostname, () => {
			tunnelPorts.add(tunnel.localPort ?? 0);
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			tunnel.write(head);
			tunnel.pipe(client);
			client.pipe(tunnel);
		});
		tunnel.on('error', () => client.destroy());
		client.on('error', () => tunnel.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	host = await n8n.prepare({ sandboxUrl: proxyUrl, workflows: [perItemWorkflows(ITEMS, proxyUrl).propRadar] });
});

afterAll(async () => {
	server?.closeAllConnections();
	await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
	await sandbox?.close();
	if (host) rmSync(host.userFolder, { recursive: true, force: true });
});

beforeEach(() => {
	seen.connections = 0;
	seen.requests = 0;
	seen.viaProxy = 0;
});

const withEnv = (env: Record<string, string>): N8nHost => ({ ...host, env: { ...host.env, ...env } });
type RunData = { data: { resultData: { runData: Record<string, Array<{ data: { main: unknown[][] } }>> } } };
const outputOf = (run: unknown) => (run as RunData).data.resultData.runData.Measured[0].data.main[0];

test(`${ITEMS} items of Property > Get go over at most 50 connections (the pool's bound), not one per item`, async () => {
	const run = await n8n.execute(host, WORKFLOW);
	expect(outputOf(run)).toHaveLength(ITEMS);
	expect(seen.requests).toBe(ITEMS);
	expect(seen.connections).toBeGreaterThanOrEqual(1);
	expect(seen.connections).toBeLessThanOrEqual(50);
});

test('n8n\'s SSRF protection blocks the sandbox on 127.0.0.1 before anything is sent, and lets it through when allowed', async () => {
	await expect(n8n.execute(withEnv({ N8N_SSRF_PROTECTION_ENABLED: 'true' }), WORKFLOW)).rejects.toThrow(/SSRF protection blocks PropRadar/);
	expect(seen.requests).toBe(0);
	const run = await n8n.execute(withEnv({ N8N_SSRF_PROTECTION_ENABLED: 'true', N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' }), WORKFLOW);
	expect(outputOf(run)).toHaveLength(ITEMS);
	expect(seen.requests).toBe(ITEMS);
});

test('requests go through the proxy set in HTTP_PROXY, and not when NO_PROXY names the host', async () => {
	const run = await n8n.execute(withEnv({ HTTP_PROXY: proxyUrl }), WORKFLOW);
	expect(outputOf(run)).toHaveLength(ITEMS);
	expect(seen.viaProxy).toBe(ITEMS);
	seen.viaProxy = 0;
	seen.requests = 0;
	await n8n.execute(withEnv({ HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' }), WORKFLOW);
	expect(seen.requests).toBe(ITEMS);
	expect(seen.viaProxy).toBe(0);
});
