/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The benchmark's wide-area link (`npm run bench -- --wan`): a server behind TLS, with a
 * self-signed certificate made for the run, reached through a TCP relay on 127.0.0.1 that delays
 * every chunk by a one-way time in each direction, in order, and a new connection's first bytes
 * by one round trip more, as the TCP handshake would. The TLS handshake's own round trips then
 * come from the delayed bytes: a request on a new connection takes three round trips, on a kept
 * one one. Latency only: no bandwidth limit and no loss. The benchmark runs two with the same
 * delay and certificate: one in front of the sandbox (what n8n and the raw client send to the
 * API), one in front of n8n (the sandbox's webhook deliveries to the trigger, and the events the
 * benchmark posts to n8n's own Webhook node beside them).
 *
 * A link runs in a process of its own (`startWanLink`), so that the sandbox's work in the
 * benchmark's process never holds back its timers; `listenWanLink` is the same link in the
 * calling process (test/unit/benchWanLink.test.ts).
 */
import { execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';

export interface Certificate {
	key: string;
	cert: string;
	/** The certificate's file: what `NODE_EXTRA_CA_CERTS` names for a process to trust it. */
	certFile: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost, valid for a day, in `dir` (made with `openssl`). */
export function makeCertificate(dir: string): Certificate {
	const keyFile = join(dir, 'link.key');
	const certFile = join(dir, 'link.crt');
	execFileSync(
		'openssl',
		[
			...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
			...['-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=localhost'],
			...['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
		],
		{ stdio: 'ignore' },
	);
	return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/**
 * Writes each chunk pushed to `to` `oneWayMs` after it was pushed, and never before `heldUntil`
 * plus `oneWayMs`, in the order pushed (one timer for the queue's head); `null` ends `to`.
 */
function delayedWriter(to: Socket, oneWayMs: number, heldUntil = 0) {
	const queue: Array<{ due: number; chunk: Buffer | null }> = [];
	let timer: NodeJS.Timeout | undefined;
	const drain = () => {
		timer = undefined;
		const now = performance.now();
		while (queue.length > 0 && queue[0].due <= now) {
			const { chunk } = queue.shift()!;
			if (to.destroyed) continue;
			if (chunk === null) to.end();
			else to.write(chunk);
		}
		if (queue.length > 0) timer = setTimeout(drain, queue[0].due - now);
	};
	return (chunk: Buffer | null) => {
		const now = performance.now();
		queue.push({ due: Math.max(now, heldUntil) + oneWayMs, chunk });
		timer ??= setTimeout(drain, queue[0].due - now);
	};
}

/** A relay on 127.0.0.1 to `port` there, each direction delayed by `oneWayMs` and a new connection by a round trip more. */
function delayingRelay(port: number, oneWayMs: number): Server {
	// Half-open connections, so that a side's end reaches the other only after the bytes before it.
	return createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
		// The client may send at once (its connect ends at once on loopback): its first bytes reach
		// the server after the SYN, SYN-ACK round trip and then their own one-way time.
		const upstream = connect({ port, host: '127.0.0.1', allowHalfOpen: true, noDelay: true });
		const toServer = delayedWriter(upstream, oneWayMs, performance.now() + 2 * oneWayMs);
		const toClient = delayedWriter(client, oneWayMs);
		client.on('data', toServer).on('end', () => toServer(null));
		upstream.on('data', toClient).on('end', () => toClient(null));
		const reset = () => {
			client.destroy();
			upstream.destroy();
		};
		client.on('error', reset);
		upstream.on('error', reset);
	});
}

// A backlog for the HTTP Request node's 2,000 connections at once: a SYN the full default queue
// (511) dropped would wait a second or more for its retry, which no link delay stands for.
const listen = (server: Server) =>
	new Promise<number>((resolve, reject) => {
		server.once('error', reject);
		server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () =>
			resolve((server.address() as AddressInfo).port),
		);
	});

export interface WanLink {
	/** The https URL that reaches `target` over the link. */
	url: string;
	close(): Promise<void>;
}

/**
 * The link in this process: TLS with `certificate`'s key ended in front of `target` (an
 * `http://127.0.0.1:port` URL), reached through the delaying relay.
 */
export async function listenWanLink(
	target: string,
	oneWayMs: number,
	{ key, cert }: Pick<Certificate, 'key' | 'cert'>,
): Promise<WanLink> {
	const targetPort = Number(new URL(target).port);
	const tls = createTlsServer({ key, cert }, (secure) => {
		const plain = connect({ port: targetPort, host: '127.0.0.1', noDelay: true });
		secure.pipe(plain).pipe(secure);
		secure.on('error', () => plain.destroy());
		plain.on('error', () => secure.destroy());
	});
	const relay = delayingRelay(await listen(tls), oneWayMs);
	const port = await listen(relay);
	const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
	return {
		url: `https://127.0.0.1:${port}`,
		close: async () => {
			await Promise.all([close(relay), close(tls)]);
		},
	};
}

/**
 * The link in a process of its own, TLS ended with `certificate` (the run's, `makeCertificate`;
 * the benchmark's two links share it): its URL.
 */
export async function startWanLink(
	target: string,
	oneWayMs: number,
	certificate: Pick<Certificate, 'key' | 'cert'>,
): Promise<WanLink> {
	const child = fork(__filename);
	const url = await new Promise<string>((resolve, reject) => {
		child.once('message', (answer: { url?: string; error?: string }) =>
			answer.url ? resolve(answer.url) : reject(new Error(`the WAN link: ${answer.error}`)),
		);
		child.once('error', reject);
		child.send({ target, oneWayMs, key: certificate.key, cert: certificate.cert });
	});
	return {
		url,
		close: async () => {
			child.kill();
		},
	};
}

if (require.main === module && process.send) {
	process.once(
		'message',
		(job: { target: string; oneWayMs: number; key: string; cert: string }) => {
			listenWanLink(job.target, job.oneWayMs, job).then(
				({ url }) => process.send!({ url }),
				(error: Error) => process.send!({ error: error.message }, () => process.exit(1)),
			);
		},
	);
	// The link ends with the benchmark.
	process.on('disconnect', () => process.exit(0));
}
