import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { describeFailure, isServiceRefusal, redact, retryDelay, withoutUserPart } from './errors';
import type { ApiPath } from './paths';
import { encodeQuery } from './query';
import type { ApiEnvelope, Query } from './types';

export const CREDENTIAL_TYPE = 'propRadarApi';

/** Every n8n context a PropRadar request is made from. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: ApiPath;
	qs?: Query;
	body?: IDataObject | IDataObject[];
	headers?: Record<string, string>;
	/**
	 * Whether the request may be sent again after a 429, a 5xx or a dropped connection. By default
	 * only reads (GET) that buy nothing are repeated; a request with `Purchase=1` never is.
	 */
	repeatable?: boolean;
	/** Item the request is made for, so that n8n shows the error on it. */
	itemIndex?: number;
}

const MAX_ATTEMPTS = 4;
const TIMEOUT_MS = 60_000;
/** Failures of the connection, after which a read is repeated (ECONNABORTED: the request's timeout). */
const NETWORK_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

/**
 * Failures to make a connection. A request fails this way only while it waits for its
 * connection, before anything of it is written, so it reached no one: a purchase failing this way
 * was not sent.
 */
const CONNECTION_NOT_MADE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

interface CredentialData {
	accessToken?: string;
	baseUrl?: string;
	spendingCeiling?: unknown;
	allowChargingAutomations?: boolean;
}

export interface Connection {
	baseUrl: string;
	/** The credential's Spending Ceiling per Execution as stored (read and checked by the charges). */
	spendingCeiling: unknown;
	/** Whether the credential's owner lets workflows set up automations that buy. */
	allowChargingAutomations: boolean;
}

const normalizedBaseUrl = (credentials: CredentialData) => String(credentials.baseUrl ?? '').trim().replace(/\/+$/, '').replace(/\/v1$/, '');

const credentialReads = new WeakMap<ApiContext, Promise<CredentialData>>();

/**
 * The credential, read once per context (one node run, one trigger call): n8n loads it from its
 * database and decrypts it on every `getCredentials`, and `httpRequestWithAuthentication` would do
 * so again for every request unless it is handed the decrypted data.
 */
function readCredential(context: ApiContext): Promise<CredentialData> {
	let read = credentialReads.get(context);
	if (!read) {
		read = context.getCredentials<CredentialData>(CREDENTIAL_TYPE);
		credentialReads.set(context, read);
		read.catch(() => credentialReads.delete(context));
	}
	return read;
}

/**
 * Starts reading the credential now, without waiting for it, so that n8n's database read runs
 * while the run reads its parameters and items; the run's first request then finds it read. A
 * failure is left to that request to report.
 */
export function readCredentialAhead(context: ApiContext): void {
	readCredential(context).catch(() => undefined);
}

/** The base URL (trailing `/` and `/v1` dropped) and the money settings of the credential. */
export async function getConnection(context: ApiContext): Promise<Connection> {
	const credentials = await readCredential(context);
	return {
		baseUrl: normalizedBaseUrl(credentials),
		spendingCeiling: credentials.spendingCeiling,
		allowChargingAutomations: credentials.allowChargingAutomations === true,
	};
}

/**
 * The credential's access token, read as every request reads it: for what the trigger derives from
 * it (the secret its deliveries carry, see the trigger's `deliverySecret`). Never put in a message.
 */
export async function accessToken(context: ApiContext): Promise<string> {
	return String((await readCredential(context)).accessToken ?? '');
}

interface Answer {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	/** The body read as JSON, or its text when it is not JSON, or undefined when empty. */
	body: unknown;
}

/**
 * One request through n8n's own request helper, which applies the instance's proxy settings and
 * SSRF protection and opens a connection for it alone, so that a purchase never goes on a
 * connection the server may be closing. Redirects are answers like any other (none is followed),
 * and so is every status: the caller reads them.
 */
async function exchange(context: ApiContext, credentials: CredentialData, request: IHttpRequestOptions): Promise<Answer> {
	const answer = (await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, request, {
		credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: credentials as ICredentialDataDecryptedObject },
	})) as { statusCode: number; headers: Answer['headers']; body: unknown };
	const text = typeof answer.body === 'string' ? answer.body : '';
	let parsed: unknown = text === '' ? undefined : text;
	if (text !== '') {
		try {
			parsed = JSON.parse(text);
		} catch {
			// Not JSON (an HTML error page, a proxy's text): the text is what the error shows.
		}
	}
	return { statusCode: answer.statusCode, headers: answer.headers, body: parsed };
}

/**
 * The errors `error` was made from, itself first: n8n's request helper wraps what failed (the
 * connection's error, its SSRF protection's refusal) in errors of its own, as their `cause`.
 */
function* causes(error: unknown): Generator<object> {
	const seen = new Set<unknown>();
	for (let current = error; typeof current === 'object' && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
		seen.add(current);
		yield current;
	}
}

function networkErrorCode(error: unknown): string | undefined {
	for (const cause of causes(error)) {
		const { code } = cause as { code?: unknown };
		if (typeof code === 'string') return code;
	}
	return undefined;
}

/** Whether `error` is the abort of a request by the execution's stop. */
function abortedBy(stop: AbortSignal | undefined, error: unknown): boolean {
	return stop?.aborted === true && networkErrorCode(error) === 'ERR_CANCELED';
}

/**
 * Values of `Secret` fields anywhere in a request body as sent (Webhook > Create sends one). A
 * field named `Secret` is written there as `"Secret":` (the quote of a key inside a text value is
 * escaped), so a body without that text, such as an import's thousands of records, is not read
 * again at all.
 */
function bodySecrets(sent: string | undefined): string[] {
	return sent?.includes('"Secret":') ? secretValues(JSON.parse(sent)) : [];
}

/** Values of `Secret` fields anywhere in `body`, added to `found`; only objects are descended into. */
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

/**
 * What a request is about, read from its path (paths.ts builds every path with its IDs) and named
 * as a person would, for its error messages: `/v1/lists/12/import/items/7` is "import item 7 of
 * list 12", so a 404 says which one does not exist.
 */
export function subjectOf(path: string): string | undefined {
	const [, , kind, id, sub, subId, importItemId] = path.split('/').map((part) => decodeURIComponent(part));
	if (kind === 'lists' && id) {
		if (sub === 'items' && subId) return `property ${subId} in list ${id}`;
		if (sub === 'import' && importItemId) return `import item ${importItemId} of list ${id}`;
		return `list ${id}`;
	}
	if (kind === 'properties' && id) return `property ${id}`;
	if (kind === 'persons' && id) return `person ${id}`;
	if (kind === 'integrations' && sub) return `webhook ${sub}`;
	return undefined;
}

/** Names of the parameters a request sends: its query and the fields of its body. */
function parameterNames(qs: Record<string, unknown>, body: unknown): string[] {
	const fields = (value: unknown): string[] => (Array.isArray(value) ? value.flatMap(fields) : typeof value === 'object' && value !== null ? Object.keys(value) : []);
	return [...Object.keys(qs), ...fields(body)];
}

/**
 * n8n's signal that this execution was stopped: from the editor or n8n's API, or by the workflow's
 * timeout (WorkflowExecute's `cancel`). n8n reports the execution stopped at once and drops what
 * the node returns after it, so from then on nothing more is sent. The editor's pickers and the
 * trigger's calls have none.
 */
function stopSignal(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

/** Waits `ms`, or less when the execution is stopped meanwhile. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) return;
	let onStop = () => {};
	const stopped = new Promise<void>((resolve) => {
		onStop = () => resolve();
		signal.addEventListener('abort', onStop);
	});
	try {
		await Promise.race([sleep(ms), stopped]);
	} finally {
		signal.removeEventListener('abort', onStop);
	}
}

/**
 * The failure of a request the execution's stop kept from being sent, or stopped on its way (n8n's
 * request helper aborts it): a purchase stopped on its way may have been charged.
 */
function stopped(context: ApiContext, request: { charging: boolean; sent: boolean; itemIndex?: number }): NodeOperationError {
	const stop = 'n8n stopped this execution (from the editor or its API, or at the workflow\'s timeout)';
	const error = new NodeOperationError(
		context.getNode(),
		request.sent && request.charging ? 'The execution was stopped during a purchase: it may have been charged' : 'The execution was stopped: nothing more is sent to PropRadar',
		{
			itemIndex: request.itemIndex,
			description: !request.sent
				? `${stop} before this request went out, so it was not sent${request.charging ? ' and nothing was charged for it' : ''}.`
				: request.charging
					? `${stop} after this purchase was sent, before PropRadar answered, so it may have been charged. Nothing more was sent. Check the account's charges in PropRadar before running it again.`
					: `${stop} while a request that buys nothing was under way; its answer was not waited for.`,
		},
	);
	if (!request.sent) neverSent.add(error);
	return error;
}

const refusals = new WeakSet<object>();
const neverSent = new WeakSet<object>();

/**
 * Whether `error` is the service's definite refusal of the request (a 4xx with its error object):
 * then nothing was done and nothing charged.
 */
export function refusedByService(error: unknown): boolean {
	return typeof error === 'object' && error !== null && refusals.has(error);
}

/**
 * Whether the request of `error` certainly charged nothing: the service refused it, or it was
 * never sent (its connection could not be made, or n8n's SSRF protection refused its address).
 * For any other failure of a purchase the charge may have happened.
 */
export function chargedNothing(error: unknown): boolean {
	return refusedByService(error) || (typeof error === 'object' && error !== null && neverSent.has(error));
}

/**
 * n8n's SSRF protection refusing the address: its check of the request, or the lookup of its
 * connection (when the name resolved to an allowed address for the check and to a blocked one
 * now). Either way nothing was written. n8n's errors carry no code, only their class name.
 */
function ssrfBlock(error: unknown): Error | undefined {
	for (const cause of causes(error)) {
		if (cause instanceof Error && (cause.name === 'SsrfBlockedIpError' || cause.name === 'SsrfBlockedHostnameError')) return cause;
	}
	return undefined;
}

/** n8n's SSRF protection refused the address before anything was sent, so nothing was charged. */
function ssrfBlocked(context: ApiContext, error: Error, request: { baseUrl: string; secrets: string[]; charging: boolean; itemIndex?: number }): NodeApiError {
	const blocked = new NodeApiError(context.getNode(), {} as JsonObject, {
		message: `This n8n's SSRF protection blocks PropRadar at ${withoutUserPart(request.baseUrl)}`,
		description: `${redact(error.message, request.secrets)}. Nothing was sent${request.charging ? ' and nothing charged' : ''}. To reach this address, the instance's owner can allow it with N8N_SSRF_ALLOWED_IP_RANGES or N8N_SSRF_ALLOWED_HOSTNAMES.`,
		itemIndex: request.itemIndex,
	});
	neverSent.add(blocked);
	return blocked;
}

/**
 * The one request helper of the package, on n8n's own (which adds the credential's token and
 * applies the instance's proxy settings and SSRF protection): JSON, query encoding, retries for
 * repeatable requests, no redirects followed (the API never redirects, so the token and a
 * purchase only ever go to the Base URL the user configured), and failures turned into a
 * `NodeApiError` a person can act on. The error is built from the service's error object only,
 * with every secret the request carried (the token, a webhook secret) redacted, since a server
 * can echo what it was sent.
 */
export async function apiRequest<T = ApiEnvelope>(context: ApiContext, request: ApiRequest): Promise<T> {
	const credentials = await readCredential(context);
	const baseUrl = normalizedBaseUrl(credentials);
	const qs = encodeQuery(request.qs);
	const charging = qs.Purchase === '1';
	const repeatable = request.repeatable ?? (request.method === 'GET' && !charging);
	if (charging && request.repeatable) {
		throw new Error('A purchase is never repeatable');
	}
	const body = request.body === undefined ? undefined : JSON.stringify(request.body);
	const secrets = [credentials.accessToken ?? '', ...Object.values(request.headers ?? {}), ...bodySecrets(body)];
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
		const refused = new NodeOperationError(context.getNode(), 'The Base URL of the PropRadar credential holds a user name or password', {
			description: `Base URL: PropRadar takes the token in the credential's Access Token, never in the address; remove the part before "@" (the address is then ${redact(address, secrets)}). Nothing was sent.`,
			itemIndex: request.itemIndex,
		});
		neverSent.add(refused);
		throw refused;
	}
	if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(baseUrl) || !URL.canParse(url)) {
		const refused = new NodeApiError(context.getNode(), {} as JsonObject, {
			message: 'The Base URL of the PropRadar credential is not a web address',
			description: `Base URL "${redact(withoutUserPart(String(credentials.baseUrl ?? '').trim()), secrets)}": allowed is an http:// or https:// address, without a query, such as http://127.0.0.1:8787 for the local sandbox. Nothing was sent.`,
			itemIndex: request.itemIndex,
		});
		neverSent.add(refused);
		throw refused;
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

	for (let attempt = 1; ; attempt++) {
		if (stop?.aborted) throw stopped(context, { charging, sent: false, itemIndex: request.itemIndex });
		let response: Answer;
		try {
			response = await exchange(context, credentials, { ...options });
		} catch (error) {
			const blocked = ssrfBlock(error);
			if (blocked) throw ssrfBlocked(context, blocked, { baseUrl: address, secrets, charging, itemIndex: request.itemIndex });
			if (abortedBy(stop, error)) throw stopped(context, { charging, sent: true, itemIndex: request.itemIndex });
			const code = networkErrorCode(error);
			if (repeatable && attempt < MAX_ATTEMPTS && code && NETWORK_ERROR_CODES.has(code)) {
				await pause(retryDelay(attempt), stop);
				continue;
			}
			// n8n replaces a message that names a network error code with its own generic one (which
			// invites an immediate retry), so the code goes in the description only.
			const cause = code ? ` (${code})` : '';
			if (charging && code && CONNECTION_NOT_MADE_CODES.has(code)) {
				const notSent = new NodeApiError(context.getNode(), {} as JsonObject, {
					message: `Could not reach PropRadar at ${address}: the purchase was not sent`,
					description: `The connection could not be made${cause}, so the purchase never left n8n: nothing was charged. Check the Base URL of the PropRadar credential and that the service (or the local sandbox) is running.`,
					itemIndex: request.itemIndex,
				});
				neverSent.add(notSent);
				throw notSent;
			}
			throw new NodeApiError(context.getNode(), {} as JsonObject, charging
				? {
					message: 'The connection to PropRadar failed during a purchase: it may have been charged',
					description: `The connection to ${address} failed${cause} after the purchase was sent, before PropRadar answered, so it may have been charged. It was not sent again, and this run buys nothing more. Check the account's charges in PropRadar before running it again.`,
					itemIndex: request.itemIndex,
				}
				: {
					message: `Could not reach PropRadar at ${address}`,
					description: `The connection failed${cause}. Check the Base URL of the PropRadar credential and that the service (or the local sandbox) is running.`,
					itemIndex: request.itemIndex,
				});
		}
		const status = response.statusCode;
		if (status >= 200 && status < 300) return response.body as T;
		if (repeatable && attempt < MAX_ATTEMPTS && (status === 429 || status >= 500)) {
			const retryAfter = response.headers?.['retry-after'];
			await pause(retryDelay(attempt, typeof retryAfter === 'string' ? retryAfter : undefined), stop);
			continue;
		}
		const header = (name: string) => {
			const value = response.headers?.[name];
			return typeof value === 'string' ? value : undefined;
		};
		const failure = describeFailure(status, response.body, header('x-prop-request-id'), {
			charging,
			secrets,
			subject: subjectOf(request.path),
			parameters: parameterNames(qs, request.body),
		});
		if (status >= 300 && status < 400) {
			failure.message = `PropRadar answered with a redirect (${status}), which is not followed`;
			failure.description = [
				`${address}${request.path} redirected to ${redact(withoutUserPart(header('location') ?? 'no address'), secrets)}. PropRadar's API does not redirect: check the Base URL of the PropRadar credential. Nothing was sent there.`,
				charging ? 'A redirect is no answer to the purchase, so it may or may not have been charged; it was not sent again, and this run buys nothing more. Check the account\'s charges in PropRadar before running it again.' : '',
			].filter(Boolean).join(' ');
		}
		const error = new NodeApiError(context.getNode(), {} as JsonObject, { ...failure, itemIndex: request.itemIndex });
		if (isServiceRefusal(status, response.body)) refusals.add(error);
		throw error;
	}
}
