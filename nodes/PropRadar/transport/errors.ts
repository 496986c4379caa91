import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

// What a failed request did with the money, on its error as `charge` (docs/money.md, rule 3): `none`
// when the service refused it with its error object, or it was never sent; `unknown` when a purchase
// was sent and no answer says what became of it. A failed request that buys nothing has no `charge`.
export type Charge = 'none' | 'unknown';

export function withCharge<T extends object>(error: T, charge: Charge | undefined): T {
	return charge ? Object.assign(error, { charge }) : error;
}

const chargeOf = (error: unknown) => (error as { charge?: Charge } | null | undefined)?.charge;

export const chargedNothing = (error: unknown): boolean => chargeOf(error) === 'none';

export const mayHaveCharged = (error: unknown): boolean => chargeOf(error) === 'unknown';

export const markMayHaveCharged = <T extends object>(error: T): T => withCharge(error, 'unknown');

/** A 4xx with the service's error object: nothing was done. Only an answer gives an `httpCode`. */
export const refusedByService = (error: unknown): boolean =>
	chargedNothing(error) && Boolean((error as { httpCode?: unknown }).httpCode);

// `charging`: Purchase=1, the message says what became of the money. `secrets` are never repeated.
// `subject` as a person names it ("list 12"). A 400 names the `parameters` the service's words mention.
export interface FailedRequest {
	charging?: boolean;
	secrets?: readonly string[];
	subject?: string;
	parameters?: readonly string[];
}

type Known = { message: string; hint: string };

const HINTS: Record<number, Known> = {
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
		hint: "The token is valid, but the subscription is inactive or lacks the API or integrations entitlement, or your user may not do this. Check the account's plan and permissions.",
	},
	429: {
		message: 'PropRadar is rate limiting this account',
		hint: 'Too many requests in a short time. Run fewer items at once or wait a little.',
	},
};

export function redact(text: string, secrets: readonly string[] = []): string {
	let result = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 4) result = result.split(secret).join('[redacted]');
	}
	return result;
}

/** Every text in a value (an answer's body) redacted, keys too: a server can echo what it was sent. */
export function redactAll(value: unknown, secrets: readonly string[]): unknown {
	if (typeof value === 'string') return redact(value, secrets);
	if (Array.isArray(value)) return value.map((entry) => redactAll(entry, secrets));
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => [redact(key, secrets), redactAll(entry, secrets)]),
	);
}

// A user part (`user:password@`) may hold a token; text that is no web address loses it all the same.
export function withoutUserPart(address: string): string {
	return address.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)?[^/?#]*@/i, '$1');
}

/** The service's error object (the lists document, "Error object"). */
interface ApiErrorBody {
	error?: string;
	eventid?: string;
	message?: string;
	messageTitle?: string;
}

function errorObject(body: unknown): ApiErrorBody | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	return typeof (body as ApiErrorBody).error === 'string' ? (body as ApiErrorBody) : undefined;
}

// Only a 4xx carrying the service's error object means nothing was done (and nothing charged): any
// other failure of a purchase may have come after the charge (docs/money.md, rule 3).
export function isServiceRefusal(status: number, body: unknown): boolean {
	return status >= 400 && status < 500 && errorObject(body) !== undefined;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function badRequestHint(serviceWords: string, parameters: readonly string[]): string {
	const named = [...new Set(parameters)].filter((name) =>
		new RegExp(`(^|[^\\w-])${escapeRegExp(name)}($|[^\\w-])`).test(serviceWords),
	);
	if (named.length > 0)
		return `Check ${named.join(', ')}: the value sent for ${named.length === 1 ? 'it' : 'them'} is what PropRadar refused.`;
	if (serviceWords)
		return "PropRadar's words above say what it refused; correct that in this node's parameters.";
	return "PropRadar did not say what it refused; check this node's parameters for this item against what the operation allows.";
}

function known(status: number, words: string, request: FailedRequest): Known {
	const { subject } = request;
	if (status === 404)
		return subject
			? {
					message: `${subject.charAt(0).toUpperCase()}${subject.slice(1)} does not exist or belongs to another account`,
					hint: `Check the ID of ${subject} and that the credential belongs to the account that owns it.`,
				}
			: {
					message: 'The resource does not exist or belongs to another account',
					hint: 'Check the ID (list, property, person, import item or webhook) and that the credential belongs to the account that owns it.',
				};
	if (status === 400)
		return {
			message: `PropRadar refused the request${subject ? ` for ${subject}` : ''} as invalid${words ? `: ${words}` : ''}`,
			hint: badRequestHint(words, request.parameters ?? []),
		};
	if (status >= 500)
		return {
			message: 'The PropRadar service failed',
			hint: 'A fault on the service side. Try again later; if it persists, send the troubleshooting code to PropRadar support.',
		};
	return HINTS[status] ?? { message: `PropRadar answered with status ${status}`, hint: '' };
}

// A failed answer in a person's words: the service's own words (its error object only) and the
// troubleshooting code in the description, secrets redacted; a purchase's says what became of the money.
export function describeFailure(
	status: number,
	body: unknown,
	requestId?: string,
	request: FailedRequest = {},
): { message: string; description: string; httpCode: string } {
	const error = errorObject(body) ?? {};
	const clean = (value: unknown) =>
		typeof value === 'string' && value.trim() ? redact(value.trim(), request.secrets) : undefined;
	const words = [...new Set([clean(error.messageTitle), clean(error.error), clean(error.message)])]
		.filter(Boolean)
		.join(': ')
		.replace(/\.$/, '');
	const subject = request.subject && redact(request.subject, request.secrets);
	let { message, hint } = known(status, words, { ...request, subject });
	let money = '';
	if (request.charging && isServiceRefusal(status, body)) {
		if (status !== 402) money = 'PropRadar refused this purchase, so nothing was charged for it.';
	} else if (request.charging) {
		message = `PropRadar answered ${status} to a purchase: it may have been charged`;
		hint = '';
		money =
			"A purchase can fail after PropRadar has charged it, so this one may have been charged. It was not sent again, and this run buys nothing more. Check the account's charges in PropRadar before running it again.";
	}
	// Not every error body has an `eventid` (issue 59): the answer's request id stands in for it.
	const code = clean(error.eventid) ?? clean(requestId);
	const description = [
		words && `PropRadar says: ${words}.`,
		money,
		hint,
		code && `Troubleshooting code: ${code}.`,
	];
	return { message, description: description.filter(Boolean).join(' '), httpCode: String(status) };
}

/** Milliseconds before a request is sent again: its `Retry-After` (seconds or a date), else a backoff from `firstMs`. */
export function retryDelay(
	attempt: number,
	retryAfter?: string,
	now = Date.now(),
	firstMs = 250,
): number {
	const cap = 30_000;
	if (retryAfter) {
		const seconds = Number(retryAfter);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
		if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), cap);
	}
	return Math.min(firstMs * 2 ** (attempt - 1), cap);
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

// An answer without its `results` array (docs/api.md, "Every guess": Answer envelope) stops, naming
// what arrived, rather than read as no records.
export function noResultsArray(
	node: INode,
	answer: unknown,
	what: string,
	money: string,
	itemIndex?: number,
): NodeOperationError {
	const arrived =
		typeof answer === 'object' && answer !== null && !Array.isArray(answer)
			? `an object with the keys ${Object.keys(answer).join(', ') || '(none)'}`
			: `${JSON.stringify(answer) ?? String(answer)}`.slice(0, 120);
	return new NodeOperationError(node, "PropRadar's answer had no results array", {
		itemIndex,
		description: `The node reads records from the results array of PropRadar's answers. The answer to ${what} was ${arrived}. ${money}`,
	});
}
