/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Agent, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createList, sandboxCall } from '../../bench/sandboxApi';
import { listenWanLink, makeCertificate, type WanLink } from '../../bench/wanLink';
import { ACCOUNTS } from '../../sandbox/accounts';
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import type { DeliveryLogEntry } from '../../sandbox/webhooks/delivery';

/**
 * The benchmark's wide-area link (bench/wanLink.ts), at a small size so that it cannot rot: the
 * sandbox answers over TLS through it, and its delays are at least what it is set to (a lower
 * bound, which load cannot break: a property of the tool, not a timing of the product).
 */
describe("the benchmark's wide-area link", () => {
	const ONE_WAY_MS = 20;
	let dir: string;
	let sandbox: RunningSandbox;
	let link: WanLink;
	let cert: string;
	/** n8n's side for the trigger's deliveries: a plain HTTP receiver behind a second link, as the benchmark puts n8n. */
	let receiver: Server;
	let received: Array<{ url?: string; headers: IncomingHttpHeaders; body: string }>;
	let webhookLink: WanLink;
	/** A sandbox started with the link's certificate to trust for its deliveries, as the benchmark starts it. */
	let trusting: RunningSandbox;

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'propradar-wan-test-'));
		sandbox = await startSandbox({ port: 0 });
		const certificate = makeCertificate(dir);
		cert = certificate.cert;
		link = await listenWanLink(sandbox.url, ONE_WAY_MS, certificate);
		received = [];
		receiver = createServer((incoming, answer) => {
			let body = '';
			incoming.setEncoding('utf8');
			incoming.on('data', (chunk: string) => (body += chunk));
			incoming.on('end', () => {
				received.push({ url: incoming.url, headers: incoming.headers, body });
				answer.writeHead(200).end('{}');
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		webhookLink = await listenWanLink(
			`http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
			ONE_WAY_MS,
			certificate,
		);
		trusting = await startSandbox({ port: 0, webhookCa: cert });
	});
	afterAll(async () => {
		await link?.close();
		await webhookLink?.close();
		await sandbox?.close();
		await trusting?.close();
		await new Promise((resolve) => receiver?.close(resolve));
		rmSync(dir, { recursive: true, force: true });
	});

	it('reaches the sandbox over TLS, a new connection in three round trips and a kept one in one', async () => {
		const agent = new Agent({ keepAlive: true, ca: cert });
		const get = () =>
			new Promise<{ status?: number; body: string; ms: number; reused: boolean }>(
				(resolve, reject) => {
					const started = performance.now();
					const sent = request(
						`${link.url}/v1/lists?Limit=1`,
						{ agent, headers: { authorization: `Bearer ${ACCOUNTS[0].token}` } },
						(response) => {
							let body = '';
							response.setEncoding('utf8');
							response.on('data', (chunk: string) => (body += chunk));
							response.on('end', () =>
								resolve({
									status: response.statusCode,
									body,
									ms: performance.now() - started,
									reused: sent.reusedSocket,
								}),
							);
						},
					);
					sent.on('error', reject).end();
				},
			);
		try {
			const first = await get();
			const kept = await get();
			expect(first.status).toBe(200);
			expect(JSON.parse(first.body)).toHaveProperty('results');
			expect(kept.status).toBe(200);
			expect([first.reused, kept.reused]).toEqual([false, true]);
			// TCP's handshake, TLS 1.3's, then the request: three round trips, each two one-way times.
			expect(first.ms).toBeGreaterThanOrEqual(6 * ONE_WAY_MS);
			expect(kept.ms).toBeGreaterThanOrEqual(2 * ONE_WAY_MS);
		} finally {
			agent.destroy();
		}
	});

	/** A new match in a monitored list whose automation delivers to a webhook at `hookUrl`: the delivery log's entry. */
	async function deliverNewMatch(from: RunningSandbox, hookUrl: string): Promise<DeliveryLogEntry> {
		const listId = await createList(from, {
			ListName: 'wan delivery',
			ListType: 'static',
			isMonitored: 1,
		});
		await sandboxCall(from, 'POST', '/v1/integrations/webhooks', {
			HookUrl: hookUrl,
			WebhookName: 'over the link',
			Secret: 'link-secret',
			Lists: [listId],
		});
		const { PropID } = await sandboxCall<{ PropID: string }>(
			from,
			'POST',
			'/_sandbox/simulate/new-match',
			{ ListID: listId },
		);
		const log = await sandboxCall<{ results: DeliveryLogEntry[] }>(
			from,
			'GET',
			'/_sandbox/deliveries?wait=1',
		);
		expect(PropID).toEqual(expect.any(String));
		return log.results.filter((entry) => entry.HookUrl === hookUrl).at(-1)!;
	}

	it("delivers the trigger's webhooks over TLS through a second link when started with the run's certificate, and without it refuses that certificate as before", async () => {
		const trusted = await deliverNewMatch(trusting, `${webhookLink.url}/webhook/trusted`);
		expect(trusted).toEqual(
			expect.objectContaining({ outcome: 'delivered', status: 200, attempts: 1 }),
		);
		const arrived = received.filter((request) => request.url === '/webhook/trusted');
		expect(arrived).toHaveLength(1);
		expect(arrived[0].headers.authorization).toBe('Bearer link-secret');
		expect(JSON.parse(arrived[0].body)).toHaveProperty('PropID');

		// A sandbox started without it trusts what Node trusts, which a self-signed certificate is not.
		const untrusted = await deliverNewMatch(sandbox, `${webhookLink.url}/webhook/untrusted`);
		expect(untrusted).toEqual(
			expect.objectContaining({ outcome: 'failed', status: null, attempts: 4 }),
		);
		expect(untrusted.error).toMatch(/self-signed certificate/);
		expect(received.filter((request) => request.url === '/webhook/untrusted')).toHaveLength(0);
	});
});
