import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { exchange, failedAnswer, type Answer } from './answer';
import {
	abortedBy,
	connectionFailed,
	networkErrorCode,
	retriesAfter,
	ssrfBlock,
	ssrfBlocked,
} from './connection';
import { normalizedBaseUrl, readCredential, type ApiContext } from './credential';
import { redact, retryDelay, withoutUserPart } from './errors';
import { inFlight } from './inFlight';
import { markNeverSent } from './outcome';
import type { ApiPath } from './paths';
import { encodeQuery } from './query';
import type { ApiEnvelope, Query } from './types';
import { pause, stopped, stopSignal } from './waits';

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: ApiPath;
	qs?: Query;
	body?: IDataObject | IDataObject[];
	headers?: Record<string, string>;
	/** Sent again after a 429, a 5xx or a dropped connection; by default GETs that buy nothing, never `Purchase=1`. */
	repeatable?: boolean;
	itemIndex?: number;
}

const MAX_ATTEMPTS = 4;
// A 429 that says when to come back (Retry-After) is the service pacing the run, not failing: a
// read waits as told up to this many times before it gives up (docs/performance.md, "Requests in flight").
const MAX_PACED_WAITS = 10;
const TIMEOUT_MS = 60_000;

// A key `Secret` is written `"Secret":` (inside a text value the quote is escaped), so a body without
// that text, such as an import's thousands of records, is not parsed again.
function bodySecrets(sent: string | undefined): string[] {
	return sent?.includes('"Secret":') ? secretValues(JSON.parse(sent)) : [];
}

function secretValues(body: unknown, found: string[] = []): string[] {
	if (typeof body !== 'object' || body === null) return found;
	if (Array.isArray(body)) {
		for (const entry of body) secretValues(entry, found);
		return found;
	}
	for (const key in body) {
		if (!Object.hasOwn(body, key)) continue;
		const value = (body as Record<string, unknown>)[key];
		if (key === 'Secret' && typeof value === 'string') found.push(value);
		else if (typeof value === 'object' && value !== null) secretValues(value, found);
	}
	return found;
}

// No redirect is followed: the token and a purchase go only to the configured Base URL.
export async function apiRequest<T = ApiEnvelope>(
	context: ApiContext,
	request: ApiRequest,
): Promise<T> {
	const credentials = await readCredential(context);
	const baseUrl = normalizedBaseUrl(credentials);
	const qs = encodeQuery(request.qs);
	const charging = qs.Purchase === '1';
	const repeatable = request.repeatable ?? (request.method === 'GET' && !charging);
	if (charging && request.repeatable) {
		throw new Error('A purchase is never repeatable');
	}
	const body = request.body === undefined ? undefined : JSON.stringify(request.body);
	const secrets = [
		credentials.accessToken ?? '',
		...Object.values(request.headers ?? {}),
		...bodySecrets(body),
	];
	const query = new URLSearchParams(qs).toString();
	const url = `${baseUrl}${request.path}${query ? `?${query}` : ''}`;
	const headers: Record<string, string> = {
		Accept: 'application/json',
		'User-Agent': 'n8n-nodes-propradar',
		...request.headers,
	};
	if (body !== undefined) headers['Content-Type'] = 'application/json';

	// A user part would be sent as Basic authentication in place of the token (n8n's request helper
	// does so), and shown back in every message that names the address: refused, and never shown.
	const address = withoutUserPart(baseUrl);
	if (address !== baseUrl) {
		const refused = new NodeOperationError(
			context.getNode(),
			'The Base URL of the PropRadar credential holds a user name or password',
			{
				description:
					`Base URL: PropRadar takes the token in the credential's Access Token, ` +
					`never in the address; remove the part before "@" (the address is then ` +
					`${redact(address, secrets)}). Nothing was sent.`,
				itemIndex: request.itemIndex,
			},
		);
		throw markNeverSent(refused);
	}
	if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(baseUrl) || !URL.canParse(url)) {
		const refused = new NodeApiError(context.getNode(), {} as JsonObject, {
			message: 'The Base URL of the PropRadar credential is not a web address',
			description:
				`Base URL "${redact(withoutUserPart(String(credentials.baseUrl ?? '').trim()), secrets)}": ` +
				`allowed is an http:// or https:// address, without a query, such as ` +
				`http://127.0.0.1:8787 for the local sandbox. Nothing was sent.`,
			itemIndex: request.itemIndex,
		});
		throw markNeverSent(refused);
	}
	const stop = stopSignal(context);
	const options: IHttpRequestOptions = {
		method: request.method,
		url,
		headers,
		body,
		timeout: TIMEOUT_MS,
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		abortSignal: stop,
	};

	const window = inFlight(context);
	// `attempt` counts the sends that failed otherwise than by a paced 429.
	for (let attempt = 1, paced = 0; ; attempt++) {
		const place = await window.enter(stop);
		if (!place) throw stopped(context, { charging, sent: false, itemIndex: request.itemIndex });
		let response: Answer;
		try {
			response = await exchange(context, credentials, { ...options });
		} catch (error) {
			window.leave(place, 'failed');
			const blocked = ssrfBlock(error);
			if (blocked)
				throw ssrfBlocked(context, blocked, {
					baseUrl: address,
					secrets,
					charging,
					itemIndex: request.itemIndex,
				});
			if (abortedBy(stop, error))
				throw stopped(context, { charging, sent: true, itemIndex: request.itemIndex });
			const code = networkErrorCode(error);
			if (repeatable && attempt < MAX_ATTEMPTS && retriesAfter(code)) {
				await pause(retryDelay(attempt), stop);
				continue;
			}
			throw connectionFailed(context, code, { address, charging, itemIndex: request.itemIndex });
		}
		const status = response.statusCode;
		const retryAfter = response.headers?.['retry-after'];
		const wait = retryDelay(attempt, typeof retryAfter === 'string' ? retryAfter : undefined);
		const pacedWait = status === 429 && typeof retryAfter === 'string';
		// A 429 or 503 says the service is busy: the run's window halves, and its Retry-After holds every request.
		const busy = status === 429 || status === 503;
		window.leave(
			place,
			busy ? 'busy' : 'answered',
			busy && typeof retryAfter === 'string' ? wait : undefined,
		);
		if (status >= 200 && status < 300) return response.body as T;
		if (repeatable && pacedWait && ++paced < MAX_PACED_WAITS) {
			await pause(wait, stop);
			attempt--;
			continue;
		}
		if (repeatable && !pacedWait && attempt < MAX_ATTEMPTS && (status === 429 || status >= 500)) {
			await pause(wait, stop);
			continue;
		}
		throw failedAnswer(context, response, {
			address,
			path: request.path,
			qs,
			body: request.body,
			charging,
			secrets,
			itemIndex: request.itemIndex,
		});
	}
}
