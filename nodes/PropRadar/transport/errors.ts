import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiErrorBody } from './types';

export interface FailureDescription {
	message: string;
	description: string;
	httpCode: string;
}

export interface FailedRequest {
	/** `Purchase=1`: the message must say what happened to the money. */
	charging?: boolean;
	/** The token, a webhook secret: never repeated in a message. */
	secrets?: readonly string[];
	/** As a person names it: "list 12", "property P000123". */
	subject?: string;
	/** Sent in query and body: a 400 names those the service's words mention. */
	parameters?: readonly string[];
}

const HINTS: Record<number, { message: string; hint: string }> = {
	401: {
		message: 'PropRadar does not accept the access token',
		hint: 'The token is invalid or expired: update the Access Token of the PropRadar credential.',
	},
	402: {
		message: 'Insufficient balance on the PropRadar account',
		hint:
			'Nothing was charged. Add balance to the account, or set Charge Mode to ' +
			'"Preview Cost (Free)" to see what this would cost.',
	},
	403: {
		message: 'PropRadar refused this request for your account',
		hint:
			'The token is valid, but the subscription is inactive or lacks the API or ' +
			"integrations entitlement, or your user may not do this. Check the account's " +
			'plan and permissions.',
	},
	404: {
		message: 'The resource does not exist or belongs to another account',
		hint:
			'Check the ID (list, property, person, import item or webhook) and that the ' +
			'credential belongs to the account that owns it.',
	},
	429: {
		message: 'PropRadar is rate limiting this account',
		hint: 'Too many requests in a short time. Run fewer items at once or wait a little.',
	},
};

const REDACTED = '[redacted]';

export function redact(text: string, secrets: readonly string[] = []): string {
	let result = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 4) result = result.split(secret).join(REDACTED);
	}
	return result;
}

// A user part (`user:password@`) may hold a token; text that is no web address loses it all the same.
export function withoutUserPart(address: string): string {
	return address.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)?[^/?#]*@/i, '$1');
}

function errorObject(body: unknown): ApiErrorBody | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	const candidate = body as ApiErrorBody;
	return typeof candidate.error === 'string' ? candidate : undefined;
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() ? value.trim() : undefined;

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function badRequestHint(serviceWords: string, parameters: readonly string[]): string {
	const named = [...new Set(parameters)].filter((name) =>
		new RegExp(`(^|[^\\w-])${escapeRegExp(name)}($|[^\\w-])`).test(serviceWords),
	);
	if (named.length > 0)
		return (
			`Check ${named.join(', ')}: the value sent for ` +
			`${named.length === 1 ? 'it' : 'them'} is what PropRadar refused.`
		);
	if (serviceWords)
		return "PropRadar's words above say what it refused; correct that in this node's parameters.";
	return (
		"PropRadar did not say what it refused; check this node's parameters for this item " +
		'against what the operation allows.'
	);
}

const capitalised = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

// Only a 4xx carrying the service's error object means nothing was done (and nothing charged): any
// other failure of a purchase may have come after the charge (docs/money.md, rule 3).
export function isServiceRefusal(status: number, body: unknown): boolean {
	return status >= 400 && status < 500 && errorObject(body) !== undefined;
}

// Only the error object's fields, with every secret of the request redacted: a server can echo it.
export function describeFailure(
	status: number,
	body: unknown,
	requestId?: string,
	request: FailedRequest = {},
): FailureDescription {
	const error = errorObject(body) ?? {};
	const clean = (value: unknown) => {
		const found = text(value);
		return found && redact(found, request.secrets);
	};
	const subject = request.subject && redact(request.subject, request.secrets);
	const serviceWords = [
		...new Set(
			[clean(error.messageTitle), clean(error.error), clean(error.message)].filter(Boolean),
		),
	]
		.join(': ')
		.replace(/\.$/, '');
	const eventId = clean(error.eventid) ?? clean(requestId);
	const known =
		status === 404 && subject
			? {
					message: `${capitalised(subject)} does not exist or belongs to another account`,
					hint:
						`Check the ID of ${subject} and that the credential belongs to the ` +
						`account that owns it.`,
				}
			: status === 400
				? {
						message: `PropRadar refused the request${subject ? ` for ${subject}` : ''} as invalid`,
						hint: badRequestHint(serviceWords, request.parameters ?? []),
					}
				: (HINTS[status] ??
					(status >= 500
						? {
								message: 'The PropRadar service failed',
								hint:
									'A fault on the service side. Try again later; ' +
									'if it persists, send the troubleshooting code ' +
									'to PropRadar support.',
							}
						: { message: `PropRadar answered with status ${status}`, hint: '' }));
	let message =
		serviceWords && status === 400 ? `${known.message}: ${serviceWords}` : known.message;
	let money = '';
	if (request.charging) {
		if (isServiceRefusal(status, body)) {
			if (status !== 402) money = 'PropRadar refused this purchase, so nothing was charged for it.';
		} else {
			message = `PropRadar answered ${status} to a purchase: it may have been charged`;
			money =
				'A purchase can fail after PropRadar has charged it, so this one may have ' +
				'been charged. It was not sent again, and this run buys nothing more. ' +
				"Check the account's charges in PropRadar before running it again.";
		}
	}
	const parts = [
		serviceWords && `PropRadar says: ${serviceWords}.`,
		money,
		request.charging && !isServiceRefusal(status, body) ? '' : known.hint,
		eventId && `Troubleshooting code: ${eventId}.`,
	].filter(Boolean);
	return { message, description: parts.join(' '), httpCode: String(status) };
}

/** Milliseconds to wait before repeating a request: `Retry-After` (seconds or a date) or backoff. */
export function retryDelay(attempt: number, retryAfter?: string, now = Date.now()): number {
	const cap = 30_000;
	if (retryAfter) {
		const seconds = Number(retryAfter);
		if (Number.isFinite(seconds)) return Math.min(Math.max(seconds * 1000, 0), cap);
		const date = Date.parse(retryAfter);
		if (Number.isFinite(date)) return Math.min(Math.max(date - now, 0), cap);
	}
	return Math.min(250 * 2 ** (attempt - 1), cap);
}

export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
