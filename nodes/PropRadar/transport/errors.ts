import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiErrorBody } from './types';

/** What a person sees when a request fails: a message, what to do, and the service's own words. */
export interface FailureDescription {
	message: string;
	description: string;
	httpCode: string;
}

const HINTS: Record<number, { message: string; hint: string }> = {
	400: {
		message: 'PropRadar refused the request as invalid',
		hint: 'Check the parameters named above.',
	},
	401: {
		message: 'PropRadar does not accept the access token',
		hint: 'The token is invalid or expired: update the Access Token of the PropRadar credential.',
	},
	402: {
		message: 'Insufficient balance on the PropRadar account',
		hint: 'Nothing was charged. Add balance to the account, or set Charge Mode to "Preview Cost (Free)" to see what this would cost.',
	},
	403: {
		message: 'PropRadar refused this request for your account',
		hint: 'The token is valid, but the subscription is inactive or lacks the API or integrations entitlement, or your user may not do this. Check the account\'s plan and permissions.',
	},
	404: {
		message: 'The resource does not exist or belongs to another account',
		hint: 'Check the ID (list, property, person, import item or webhook) and that the credential belongs to the account that owns it.',
	},
	429: {
		message: 'PropRadar is rate limiting this account',
		hint: 'Too many requests in a short time. Run fewer items at once or wait a little.',
	},
};

/**
 * Describes a failed API answer for a person. Uses only the error object's fields (never the
 * request, so a token cannot leak into the message).
 */
export function describeFailure(status: number, body: unknown, requestId?: string): FailureDescription {
	const error: ApiErrorBody = typeof body === 'object' && body !== null ? (body as ApiErrorBody) : {};
	const known = HINTS[status] ?? (status >= 500
		? { message: 'The PropRadar service failed', hint: 'A fault on the service side. Try again later; if it persists, send the troubleshooting code to PropRadar support.' }
		: { message: `PropRadar answered with status ${status}`, hint: '' });
	const serviceWords = [...new Set([error.messageTitle, error.error, error.message].filter(Boolean))].join(': ').replace(/\.$/, '');
	const eventId = error.eventid ?? requestId;
	const parts = [
		serviceWords && `PropRadar says: ${serviceWords}.`,
		known.hint,
		eventId && `Troubleshooting code: ${eventId}.`,
	].filter(Boolean);
	return {
		message: serviceWords && status === 400 ? `${known.message}: ${serviceWords}` : known.message,
		description: parts.join(' '),
		httpCode: String(status),
	};
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

/** An error as n8n shows it: node errors pass through (with the item set), anything else is wrapped. */
export function toNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
