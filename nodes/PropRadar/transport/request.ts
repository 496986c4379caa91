import { NodeOperationError, sleep } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { encodeQuery, type ApiEnvelope, type ApiPath, type Query } from './api';
import { noResultsArray, redact, retryDelay, withCharge, withoutUserPart } from './errors';
import { answerError, connectionError, networkErrorCode, stopped } from './failures';
import type { Sending } from './failures';
import { CREDENTIAL_TYPE, inFlight, normalizedBaseUrl, readCredential } from './run';
import type { ApiContext, CredentialData } from './run';

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: ApiPath;
	qs?: Query;
	body?: IDataObject | IDataObject[];
	headers?: Record<string, string>;
	/** Sent again after a 429, a 5xx or a dropped connection; by default GETs that buy nothing, never `Purchase=1`. */
	repeatable?: boolean;
	/** False: the answer is read whatever its shape (a free GET is otherwise refused without `results`). */
	envelope?: false;
	itemIndex?: number;
}

// Sends of a repeatable request after a 5xx or a dropped connection; after a 429 (the service
// pacing the run, not failing). A 429 without `Retry-After` (issue 59) waits 0.5 s, doubling to 8 s.
const MAX_ATTEMPTS = 4;
const MAX_RATE_LIMITED = 10;
const RATE_LIMITED_FIRST_MS = 500;
const RATE_LIMITED_MAX_MS = 8_000;
const TIMEOUT_MS = 60_000;
const RETRIED_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
]);

// The `Secret` of a webhook's body; only a body with that key is parsed again (not an import's records).
function bodySecrets(body: unknown, found: string[] = []): string[] {
	if (Array.isArray(body)) for (const entry of body) bodySecrets(entry, found);
	else if (typeof body === 'object' && body !== null)
		for (const [key, value] of Object.entries(body)) {
			if (key === 'Secret' && typeof value === 'string') found.push(value);
			else if (typeof value === 'object') bodySecrets(value, found);
		}
	return found;
}

/** The request as n8n's helper takes it; refused, with nothing sent, when the Base URL cannot be one. */
function prepare(context: ApiContext, credentials: CredentialData, request: ApiRequest) {
	const baseUrl = normalizedBaseUrl(credentials);
	const qs = encodeQuery(request.qs);
	const body = request.body === undefined ? undefined : JSON.stringify(request.body);
	const secrets = [
		credentials.accessToken ?? '',
		...Object.values(request.headers ?? {}),
		...(body?.includes('"Secret":') ? bodySecrets(request.body) : []),
	];
	const query = new URLSearchParams(qs).toString();
	const url = `${baseUrl}${request.path}${query ? `?${query}` : ''}`;
	const address = withoutUserPart(baseUrl);
	const refuse = (message: string, description: string) =>
		withCharge(
			new NodeOperationError(context.getNode(), message, {
				description: `${description} Nothing was sent.`,
				itemIndex: request.itemIndex,
			}),
			'none',
		);
	// A user part would be sent as Basic authentication in place of the token (n8n's request helper
	// does so), and shown back in every message that names the address: refused, and never shown.
	if (address !== baseUrl)
		throw refuse(
			'The Base URL of the PropRadar credential holds a user name or password',
			`Base URL: PropRadar takes the token in the credential's Access Token, never in the address; remove the part before "@" (the address is then ${redact(address, secrets)}).`,
		);
	if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(baseUrl) || !URL.canParse(url))
		throw refuse(
			'The Base URL of the PropRadar credential is not a web address',
			`Base URL "${redact(withoutUserPart(String(credentials.baseUrl ?? '').trim()), secrets)}": allowed is an http:// or https:// address, without a query, such as http://127.0.0.1:8787 for the local sandbox.`,
		);
	const sending: Sending = {
		address,
		path: request.path,
		qs,
		body: request.body,
		charging: qs.Purchase === '1',
		secrets,
		itemIndex: request.itemIndex,
	};
	const options: IHttpRequestOptions = {
		method: request.method,
		url,
		headers: {
			Accept: 'application/json',
			'User-Agent': 'n8n-nodes-propradar',
			...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
			...request.headers,
		},
		body,
		timeout: TIMEOUT_MS,
		returnFullResponse: true,
		// Every status is an answer to read: the helper would re-send a request answered 401
		// (`httpRequestWithAuthentication` in n8n-core's request-helpers/authentication.ts).
		ignoreHttpStatusErrors: true,
		// Nor is a redirect followed: the token and a purchase go only to the configured Base URL.
		disableFollowRedirect: true,
	};
	return { sending, options };
}

type Sent = { answer: IN8nHttpFullResponse } | { failure: unknown };

/** How long to wait before sending a request again, or undefined when it is not sent again. */
function waitBeforeAgain(attempt: number, sent: Sent): number | undefined {
	if ('failure' in sent) {
		const code = networkErrorCode(sent.failure);
		return code && RETRIED_CODES.has(code) && attempt < MAX_ATTEMPTS
			? retryDelay(attempt)
			: undefined;
	}
	const { statusCode: status, headers } = sent.answer;
	const retryAfter = typeof headers?.['retry-after'] === 'string' ? headers['retry-after'] : '';
	if (status === 429 && attempt < MAX_RATE_LIMITED)
		return retryAfter
			? retryDelay(attempt, retryAfter)
			: Math.min(retryDelay(attempt, '', 0, RATE_LIMITED_FIRST_MS), RATE_LIMITED_MAX_MS);
	return status >= 500 && attempt < MAX_ATTEMPTS ? retryDelay(attempt, retryAfter) : undefined;
}

async function pause(ms: number, stop: AbortSignal | undefined): Promise<void> {
	if (stop?.aborted) return;
	let onStop = () => {};
	const stopping = new Promise<void>((resolve) =>
		stop?.addEventListener('abort', (onStop = () => resolve())),
	);
	await Promise.race([sleep(ms), stopping]);
	stop?.removeEventListener('abort', onStop);
}

// A free read without its `results` array stops (docs/api.md, "Every guess": Answer envelope);
// writes and charges are read where they are sent.
function checkedEnvelope(context: ApiContext, request: ApiRequest, body: unknown): unknown {
	const free = request.method === 'GET' && request.qs?.Purchase === undefined;
	if (!free || request.envelope === false || Array.isArray((body as ApiEnvelope)?.results))
		return body;
	const what = `a read (GET ${request.path})`;
	const money = 'It was a free read: nothing was charged.';
	throw noResultsArray(context.getNode(), body, what, money, request.itemIndex);
}

// Through n8n's request helper (its proxy settings and SSRF protection); sent again only when it buys nothing.
export async function apiRequest<T = ApiEnvelope>(
	context: ApiContext,
	request: ApiRequest,
): Promise<T> {
	const credentials = await readCredential(context);
	const { sending, options } = prepare(context, credentials, request);
	// The one rule of money here: a purchase (Purchase=1) is sent once, whatever became of it.
	if (sending.charging && request.repeatable) throw new Error('A purchase is never repeatable');
	const repeatable = !sending.charging && (request.repeatable ?? request.method === 'GET');
	const stop =
		'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
	const run = inFlight(context);
	// The credential read for the run (run.ts): n8n would load and decrypt it again for
	// every request (`getCredentials` in n8n-core's request-helpers/authentication.ts).
	const decrypted = {
		credentialsDecrypted: {
			id: '',
			name: '',
			type: CREDENTIAL_TYPE,
			data: credentials as ICredentialDataDecryptedObject,
		},
	};
	for (let attempt = 1; ; attempt++) {
		if (!(await run.enter(stop))) throw stopped(context, sending, false);
		const sent: Sent = await context.helpers.httpRequestWithAuthentication
			.call(context, CREDENTIAL_TYPE, { ...options, abortSignal: stop }, decrypted)
			.then(
				(answer) => ({ answer: answer as IN8nHttpFullResponse }),
				(failure: unknown) => ({ failure }),
			);
		run.leave();
		if ('answer' in sent && sent.answer.statusCode >= 200 && sent.answer.statusCode < 300)
			return checkedEnvelope(context, request, sent.answer.body) as T;
		if ('failure' in sent && stop?.aborted) throw stopped(context, sending, true);
		const wait = repeatable ? waitBeforeAgain(attempt, sent) : undefined;
		if (wait !== undefined) await pause(wait, stop);
		else if ('answer' in sent) throw answerError(context, sent.answer, sending);
		else throw connectionError(context, sent.failure, sending);
	}
}
