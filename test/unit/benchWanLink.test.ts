/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { listenWanLink, makeCertificate, type WanLink } from '../../bench/wanLink';
import { ACCOUNTS } from '../../sandbox/accounts';
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';

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

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'propradar-wan-test-'));
		sandbox = await startSandbox({ port: 0 });
		const certificate = makeCertificate(dir);
		cert = certificate.cert;
		link = await listenWanLink(sandbox.url, ONE_WAY_MS, certificate);
	});
	afterAll(async () => {
		await link?.close();
		await sandbox?.close();
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
});
