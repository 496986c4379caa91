import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiContext } from './credential';
import { redact, withoutUserPart } from './errors';
import { markNeverSent } from './outcome';

/** Failures of the connection, after which a read is repeated (ECONNABORTED: the request's timeout). */
const NETWORK_ERROR_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
]);

// A request fails with these only while it waits for its connection, before anything is written: a
// purchase failing so was not sent.
const CONNECTION_NOT_MADE_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
]);

// n8n's request helper wraps what failed (the connection's error, an SSRF refusal) as the `cause`.
function* causes(error: unknown): Generator<object> {
	const seen = new Set<unknown>();
	for (
		let current = error;
		typeof current === 'object' && current !== null && !seen.has(current);
		current = (current as { cause?: unknown }).cause
	) {
		seen.add(current);
		yield current;
	}
}

export function networkErrorCode(error: unknown): string | undefined {
	for (const cause of causes(error)) {
		const { code } = cause as { code?: unknown };
		if (typeof code === 'string') return code;
	}
	return undefined;
}

export function abortedBy(stop: AbortSignal | undefined, error: unknown): boolean {
	return stop?.aborted === true && networkErrorCode(error) === 'ERR_CANCELED';
}

// n8n's SSRF refusals (of the request, or of the connection's lookup: nothing written either way)
// carry no code, only their class name.
export function ssrfBlock(error: unknown): Error | undefined {
	for (const cause of causes(error)) {
		if (
			cause instanceof Error &&
			(cause.name === 'SsrfBlockedIpError' || cause.name === 'SsrfBlockedHostnameError')
		)
			return cause;
	}
	return undefined;
}

export function ssrfBlocked(
	context: ApiContext,
	error: Error,
	request: { baseUrl: string; secrets: string[]; charging: boolean; itemIndex?: number },
): NodeApiError {
	const blocked = new NodeApiError(context.getNode(), {} as JsonObject, {
		message: `This n8n's SSRF protection blocks PropRadar at ${withoutUserPart(request.baseUrl)}`,
		description:
			`${redact(error.message, request.secrets)}. Nothing was ` +
			`sent${request.charging ? ' and nothing charged' : ''}. To reach this address, the ` +
			`instance's owner can allow it with N8N_SSRF_ALLOWED_IP_RANGES or ` +
			`N8N_SSRF_ALLOWED_HOSTNAMES.`,
		itemIndex: request.itemIndex,
	});
	return markNeverSent(blocked);
}

export function retriesAfter(code: string | undefined): boolean {
	return code !== undefined && NETWORK_ERROR_CODES.has(code);
}

export function connectionFailed(
	context: ApiContext,
	code: string | undefined,
	request: { address: string; charging: boolean; itemIndex?: number },
): NodeApiError {
	const { address, charging, itemIndex } = request;
	// n8n replaces a message naming a network error code with its own generic one, which invites an
	// immediate retry: the code goes in the description only.
	const cause = code ? ` (${code})` : '';
	if (charging && code && CONNECTION_NOT_MADE_CODES.has(code)) {
		return markNeverSent(
			new NodeApiError(context.getNode(), {} as JsonObject, {
				message: `Could not reach PropRadar at ${address}: the purchase was not sent`,
				description:
					`The connection could not be made${cause}, so the purchase never left n8n: ` +
					`nothing was charged. Check the Base URL of the PropRadar credential and ` +
					`that the service (or the local sandbox) is running.`,
				itemIndex,
			}),
		);
	}
	return new NodeApiError(
		context.getNode(),
		{} as JsonObject,
		charging
			? {
					message: 'The connection to PropRadar failed during a purchase: it may have been charged',
					description:
						`The connection to ${address} failed${cause} after the purchase was ` +
						`sent, before PropRadar answered, so it may have been charged. It was ` +
						`not sent again, and this run buys nothing more. Check the account's ` +
						`charges in PropRadar before running it again.`,
					itemIndex,
				}
			: {
					message: `Could not reach PropRadar at ${address}`,
					description:
						`The connection failed${cause}. Check the Base URL of the PropRadar ` +
						`credential and that the service (or the local sandbox) is running.`,
					itemIndex,
				},
	);
}
