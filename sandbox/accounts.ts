import { randomBytes } from 'node:crypto';

import { ApiError } from './errors';
import type { SandboxContext } from './types';

/** The sandbox's fixed accounts, one per token (docs/sandbox.md). */
export interface AccountSpec {
	token: string;
	/** Stable key of the account's data inside the sandbox state. */
	id: string;
	/** What the account is, as the sandbox's start-up lines say. */
	description: string;
	/** Set when every call with this token is refused with 403: the service's error text, and its message if any. */
	refusal?: string;
	refusalMessage?: string;
	/** A member whose role permits reads only (`isRead`): any other operation answers 403. */
	readOnly?: boolean;
	/** Whether the account has the integrations entitlement: without it the webhook routes answer 403. */
	integrations: boolean;
	/** Free export credits at start (each pays for one charged record). */
	startingCredits: number;
	/** Balance at start, in integer cents. */
	startingBalanceCents: number;
}

/** The text of a permission denial (the lists document, Errors: 403). */
export const NOT_AUTHORIZED = 'You are not authorized to use this service';

export const ACCOUNTS: readonly AccountSpec[] = [
	{
		token: 'sandbox-token',
		id: 'acct-1',
		description: 'active',
		integrations: true,
		startingCredits: 100,
		startingBalanceCents: 500_000,
	},
	{
		token: 'sandbox-token-2',
		id: 'acct-2',
		description: 'active (a second account)',
		integrations: true,
		startingCredits: 100,
		startingBalanceCents: 500_000,
	},
	{
		token: 'sandbox-broke',
		id: 'acct-broke',
		description: 'active, nothing to pay with',
		integrations: true,
		startingCredits: 0,
		startingBalanceCents: 0,
	},
	{
		token: 'sandbox-inactive',
		id: 'acct-inactive',
		description: 'inactive subscription (403)',
		refusal: NOT_AUTHORIZED,
		integrations: false,
		startingCredits: 0,
		startingBalanceCents: 0,
	},
	{
		token: 'sandbox-no-integrations',
		id: 'acct-no-integrations',
		description: 'active, without the integrations entitlement (webhooks 403)',
		integrations: false,
		startingCredits: 100,
		startingBalanceCents: 500_000,
	},
	{
		token: 'sandbox-no-api',
		id: 'acct-no-api',
		description: 'active, without the API entitlement (403 on every route)',
		refusal: NOT_AUTHORIZED,
		refusalMessage:
			'This account has no API entitlement: the API is not part of its plan. An account owner can add it.',
		integrations: true,
		startingCredits: 0,
		startingBalanceCents: 0,
	},
	{
		token: 'sandbox-read-only',
		id: 'acct-read-only',
		description: 'a member who may only read (403 on every operation that changes or buys)',
		readOnly: true,
		integrations: true,
		startingCredits: 100,
		startingBalanceCents: 500_000,
	},
	{
		token: 'sandbox-oauth-denied',
		id: 'acct-oauth-denied',
		description: 'an OAuth token without the scope (403 "{error_code} - {description}")',
		refusal: 'insufficient_scope - The access token does not grant the scope this API requires',
		integrations: false,
		startingCredits: 0,
		startingBalanceCents: 0,
	},
];

const byToken = new Map(ACCOUNTS.map((account) => [account.token, account]));
const byId = new Map(ACCOUNTS.map((account) => [account.id, account]));

/**
 * Tokens issued and rotated away by `POST /_sandbox/tokens/rotate`: part of the sandbox's state, so
 * that a reset forgets them and a data file keeps them.
 */
export interface TokenBook {
	/** An issued token, and the id of the account it opens. */
	issued: Record<string, string>;
	/** Tokens rotated away: they open nothing any more (401). */
	revoked: string[];
}

/** The sandbox's token book (its state's slice `tokens`). */
export function tokenBook(ctx: SandboxContext): TokenBook {
	return ctx.store.slice<TokenBook>('tokens', () => ({ issued: {}, revoked: [] }));
}

/** The account a token opens: a fixed one or one issued by a rotation, unless it was rotated away. */
function accountOf(token: string, book: TokenBook | undefined): AccountSpec | undefined {
	if (book?.revoked.includes(token)) return undefined;
	const issued =
		book && Object.hasOwn(book.issued, token) ? byId.get(book.issued[token]) : undefined;
	return issued ?? byToken.get(token);
}

/**
 * A new token for the account `token` opens, as a service's token rotation issues one; the old
 * token is rotated away (401 from then on) unless `keepOld`. Undefined when `token` opens nothing.
 */
export function rotateToken(
	book: TokenBook,
	token: string,
	keepOld: boolean,
): { account: string; token: string } | undefined {
	const account = accountOf(token, book);
	if (!account) return undefined;
	const issued = `sandbox-rotated-${randomBytes(12).toString('hex')}`;
	book.issued[issued] = account.id;
	if (!keepOld) book.revoked.push(token);
	return { account: account.id, token: issued };
}

export interface AuthHeaders {
	authorization?: string;
	'x-prop-access-token'?: string;
}

export interface AuthOptions {
	/** The route answers 404 instead of 401 when no credentials are sent (the lists document, Authentication 5). */
	hideExistence?: boolean;
	/** The import POST also takes `X-Prop-Access-Token`. */
	acceptAccessTokenHeader?: boolean;
	/** The route needs the integrations entitlement (the webhook routes). */
	integrations?: boolean;
}

/** A request as the permission check sees it: its method and its route's path pattern. */
export interface Operation {
	method: string;
	route: string;
}

/** What a read-only member may do: every GET, and the property search (a read by criteria in a POST body). */
function isRead({ method, route }: Operation): boolean {
	return method === 'GET' || (method === 'POST' && route === '/v1/properties');
}

/** Resolves the calling account (also by a token `book` issued), or throws the error the service gives. */
export function authenticate(
	headers: AuthHeaders,
	opts: AuthOptions = {},
	book?: TokenBook,
	operation?: Operation,
): AccountSpec {
	const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim();
	const token =
		bearer ?? (opts.acceptAccessTokenHeader ? headers['x-prop-access-token'] : undefined);
	if (!token) {
		if (opts.hideExistence) throw new ApiError(404, 'Resource does not exist for given id');
		throw new ApiError(401, 'Invalid or expired token');
	}
	const account = accountOf(token, book);
	if (!account) throw new ApiError(401, 'Invalid or expired token');
	if (account.refusal) throw new ApiError(403, account.refusal, account.refusalMessage);
	if (account.readOnly && operation && !isRead(operation))
		throw new ApiError(
			403,
			NOT_AUTHORIZED,
			'Your user has no permission for this operation: its role may only read. An account owner can change the role.',
		);
	if (opts.integrations && !account.integrations) {
		throw new ApiError(
			403,
			NOT_AUTHORIZED,
			'This account has no integrations entitlement: webhooks are not available to it.',
		);
	}
	return account;
}
