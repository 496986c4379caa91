/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { isIP } from 'node:net';
import { getCACertificates } from 'node:tls';

import { Agent, request, type Dispatcher } from 'undici';

import type { SandboxContext } from '../types';
import { deliveryBody } from '../variants';

/**
 * Webhook delivery: POST JSON to the webhook's HookUrl with `Authorization: Bearer <Secret>` when it
 * has one, retried with backoff on network errors, 404, 429 and 5xx, every attempt in the delivery
 * log (never the secret). Only loopback targets unless the sandbox was started with
 * `--allow-remote-webhooks`, so the sandbox cannot be made to call other hosts.
 */
export interface DeliveryLogEntry {
	id: number;
	at: string;
	WebhookID: number;
	HookUrl: string;
	ListID: number;
	events: number;
	status: number | null;
	attempts: number;
	/** Each attempt's status, in order (null: no answer, `error` says why for the last). */
	statuses: Array<number | null>;
	outcome: 'delivered' | 'failed' | 'refused';
	error?: string;
}

/**
 * The dispatcher of a sandbox started with `webhookCa`: a certificate trusted beside the ones Node
 * trusts by default (as `NODE_EXTRA_CA_CERTS` adds one), for deliveries to an https webhook whose
 * certificate was made after the sandbox's process started (the benchmark's WAN link). Without
 * it, none: deliveries use undici's global dispatcher and trust what Node trusts.
 */
export function webhookDispatcher(ca: string | undefined): Dispatcher | undefined {
	return ca === undefined
		? undefined
		: new Agent({ connect: { ca: [...getCACertificates(), ca] } });
}

const RETRY_DELAYS_MS = [100, 400, 1600];
const pending = new Set<Promise<void>>();

export function deliveryLog(ctx: SandboxContext): DeliveryLogEntry[] {
	return ctx.store.slice<DeliveryLogEntry[]>('deliveries', () => []);
}

export function isLoopback(url: string): boolean {
	let host: string;
	try {
		host = new URL(url).hostname.replace(/^\[|\]$/g, '');
	} catch {
		return false;
	}
	if (host === 'localhost') return true;
	if (isIP(host) === 4) return host.startsWith('127.');
	return host === '::1';
}

async function attempt(
	url: string,
	body: string,
	secret: string | undefined,
	dispatcher: Dispatcher | undefined,
): Promise<{ status: number | null; error?: string }> {
	try {
		const response = await request(url, {
			dispatcher,
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				...(secret ? { authorization: `Bearer ${secret}` } : {}),
			},
			body,
			headersTimeout: 10_000,
			bodyTimeout: 10_000,
		});
		await response.body.dump();
		return { status: response.statusCode };
	} catch (error) {
		return { status: null, error: (error as Error).message };
	}
}

const retryable = (status: number | null) =>
	status === null || status === 404 || status === 429 || status >= 500;

/** Starts a delivery; it runs in the background (`settleDeliveries` waits for all of them). */
export function deliver(
	ctx: SandboxContext,
	hook: { WebhookID: number; HookUrl: string; Secret?: string },
	listId: number,
	payload: Record<string, unknown>[],
): void {
	const log = deliveryLog(ctx);
	const entry: DeliveryLogEntry = {
		id: log.length + 1,
		at: new Date().toISOString(),
		WebhookID: hook.WebhookID,
		HookUrl: hook.HookUrl,
		ListID: listId,
		events: payload.length,
		status: null,
		attempts: 0,
		statuses: [],
		outcome: 'failed',
	};
	log.push(entry);
	if (!ctx.options.allowRemoteWebhooks && !isLoopback(hook.HookUrl)) {
		entry.outcome = 'refused';
		entry.error =
			'The sandbox only delivers to loopback addresses (start it with --allow-remote-webhooks to change that)';
		ctx.store.save();
		return;
	}
	const body = JSON.stringify(deliveryBody(ctx.variants, payload));
	const run = (async () => {
		for (let i = 0; ; i++) {
			const result = await attempt(
				hook.HookUrl,
				body,
				hook.Secret || undefined,
				ctx.webhookDispatcher,
			);
			entry.attempts = i + 1;
			entry.statuses.push(result.status);
			entry.status = result.status;
			entry.error = result.error;
			if (!retryable(result.status)) {
				entry.outcome = result.status !== null && result.status < 300 ? 'delivered' : 'failed';
				break;
			}
			if (i >= RETRY_DELAYS_MS.length) break;
			await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[i]));
		}
		ctx.store.save();
	})();
	pending.add(run);
	void run.finally(() => pending.delete(run));
}

/** Waits until every delivery started so far (and any they start) has finished. */
export async function settleDeliveries(): Promise<void> {
	while (pending.size > 0) await Promise.allSettled([...pending]);
}
