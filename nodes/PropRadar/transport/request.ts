import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { describeFailure, retryDelay } from './errors';
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
const NETWORK_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

export interface Connection {
	baseUrl: string;
	/** The credential owner's ceiling per node run, in cents; 0 when none is set. */
	spendingCeilingCents: number;
}

/** The base URL (trailing `/` and `/v1` dropped) and the spending ceiling of the credential. */
export async function getConnection(context: ApiContext): Promise<Connection> {
	const credentials = await context.getCredentials<{ baseUrl: string; spendingCeiling?: number }>(CREDENTIAL_TYPE);
	const baseUrl = String(credentials.baseUrl ?? '').trim().replace(/\/+$/, '').replace(/\/v1$/, '');
	return { baseUrl, spendingCeilingCents: Math.round((credentials.spendingCeiling ?? 0) * 100) };
}

function networkErrorCode(error: unknown): string | undefined {
	const err = error as { code?: string; cause?: { code?: string } };
	return err?.code ?? err?.cause?.code;
}

/**
 * The one request helper of the package: authentication through the credential, JSON, query
 * encoding, retries for repeatable requests, and failures turned into a `NodeApiError` a person
 * can act on. The error is built from the service's error object only, never from the request
 * options, so the token cannot appear in it.
 */
export async function apiRequest<T = ApiEnvelope>(context: ApiContext, request: ApiRequest): Promise<T> {
	const { baseUrl } = await getConnection(context);
	const qs = encodeQuery(request.qs);
	const repeatable = request.repeatable ?? (request.method === 'GET' && qs.Purchase !== '1');
	if (qs.Purchase === '1' && request.repeatable) {
		throw new Error('A purchase is never repeatable');
	}
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: TIMEOUT_MS,
		headers: { Accept: 'application/json', ...request.headers },
	};
	if (request.body !== undefined) options.body = request.body;

	for (let attempt = 1; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				CREDENTIAL_TYPE,
				options,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			const code = networkErrorCode(error);
			if (repeatable && attempt < MAX_ATTEMPTS && code && NETWORK_ERROR_CODES.has(code)) {
				await sleep(retryDelay(attempt));
				continue;
			}
			const charging = qs.Purchase === '1';
			throw new NodeApiError(context.getNode(), { code: code ?? 'UNKNOWN' } as JsonObject, {
				message: `Could not reach PropRadar at ${baseUrl}${code ? ` (${code})` : ''}`,
				description: charging
					? 'The connection failed before PropRadar answered, so this purchase may or may not have been charged. It was not sent again: check the account before running it again.'
					: 'Check the Base URL of the PropRadar credential and that the service (or the local sandbox) is running.',
				itemIndex: request.itemIndex,
			});
		}
		const status = response.statusCode;
		if (status >= 200 && status < 300) return response.body as T;
		if (repeatable && attempt < MAX_ATTEMPTS && (status === 429 || status >= 500)) {
			const retryAfter = response.headers?.['retry-after'];
			await sleep(retryDelay(attempt, typeof retryAfter === 'string' ? retryAfter : undefined));
			continue;
		}
		const requestId = response.headers?.['x-prop-request-id'];
		const failure = describeFailure(status, response.body, typeof requestId === 'string' ? requestId : undefined);
		const errorBody = typeof response.body === 'object' && response.body !== null ? (response.body as JsonObject) : {};
		throw new NodeApiError(context.getNode(), errorBody, { ...failure, itemIndex: request.itemIndex });
	}
}
