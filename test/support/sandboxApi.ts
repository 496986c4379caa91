/**
 * What every test tier says to the sandbox over HTTP: the tokens of its accounts, one call helper
 * and the main account's charges. No jest and no sandbox code here (its types only), so that the
 * sandbox, engine and e2e tiers share it.
 */
import type { ChargeEntry, Wallet } from '../../sandbox/charges';

/** The sandbox's accounts (docs/sandbox.md; sandbox/accounts.ts). */
export const TOKENS = {
	main: 'sandbox-token',
	second: 'sandbox-token-2',
	broke: 'sandbox-broke',
	inactive: 'sandbox-inactive',
	noIntegrations: 'sandbox-no-integrations',
	oauthDenied: 'sandbox-oauth-denied',
	noApi: 'sandbox-no-api',
	readOnly: 'sandbox-read-only',
	/** A token of no account. */
	invalid: 'not-a-token',
} as const;

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Json = any;

export interface Answer {
	status: number;
	headers: Headers;
	/** The body parsed as JSON; undefined when there is none. */
	body: Json;
}

export interface CallOptions {
	body?: unknown;
	/** The bearer token (by default the main account's); `null` sends no Authorization header (the `/_sandbox/...` control routes). */
	token?: string | null;
	headers?: Record<string, string>;
}

/** One HTTP call to a running sandbox at `baseUrl`; the body is sent and parsed as JSON when there is one. */
export async function call(
	baseUrl: string,
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<Answer> {
	const token = options.token === undefined ? TOKENS.main : options.token;
	const headers: Record<string, string> = { ...(options.headers ?? {}) };
	if (token !== null) headers.Authorization = `Bearer ${token}`;
	if (options.body !== undefined) headers['content-type'] = 'application/json';
	const response = await fetch(`${baseUrl}${path}`, {
		method,
		headers,
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
	});
	const text = await response.text();
	return {
		status: response.status,
		headers: response.headers,
		body: text ? JSON.parse(text) : undefined,
	};
}

/** The main account's wallet at the sandbox at `baseUrl`: its free credits, its balance and every charge. */
export async function sandboxCharges(baseUrl: string): Promise<Wallet> {
	return (await call(baseUrl, 'GET', `/_sandbox/charges?token=${TOKENS.main}`)).body as Wallet;
}

/** The charge log entries added since `before` was read. */
export const added = (before: Wallet, after: Wallet) => after.log.slice(before.log.length);

export const sum = (log: ChargeEntry[], field: 'cents' | 'quantity') =>
	log.reduce((total, charge) => total + charge[field], 0);
