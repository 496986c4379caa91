import { ApiError } from './errors';

/** The sandbox's fixed accounts, one per token (docs/sandbox.md). */
export interface AccountSpec {
	token: string;
	/** Stable key of the account's data inside the sandbox state. */
	id: string;
	/** What the account is, as the sandbox's start-up lines say. */
	description: string;
	/** Set when every call with this token is refused with 403: the service's error text. */
	refusal?: string;
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
	{ token: 'sandbox-token', id: 'acct-1', description: 'active', integrations: true, startingCredits: 100, startingBalanceCents: 500_000 },
	{ token: 'sandbox-token-2', id: 'acct-2', description: 'active (a second account)', integrations: true, startingCredits: 100, startingBalanceCents: 500_000 },
	{ token: 'sandbox-broke', id: 'acct-broke', description: 'active, nothing to pay with', integrations: true, startingCredits: 0, startingBalanceCents: 0 },
	{
		token: 'sandbox-inactive',
		id: 'acct-inactive',
		description: 'inactive subscription (403)',
		refusal: NOT_AUTHORIZED,
		integrations: false,
		startingCredits: 0,
		startingBalanceCents: 0,
	},
	{ token: 'sandbox-no-integrations', id: 'acct-no-integrations', description: 'active, without the integrations entitlement (webhooks 403)', integrations: false, startingCredits: 100, startingBalanceCents: 500_000 },
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

/** Resolves the calling account, or throws the error the service gives. */
export function authenticate(headers: AuthHeaders, opts: AuthOptions = {}): AccountSpec {
	const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim();
	const token = bearer ?? (opts.acceptAccessTokenHeader ? headers['x-prop-access-token'] : undefined);
	if (!token) {
		if (opts.hideExistence) throw new ApiError(404, 'Resource does not exist for given id');
		throw new ApiError(401, 'Invalid or expired token');
	}
	const account = byToken.get(token);
	if (!account) throw new ApiError(401, 'Invalid or expired token');
	if (account.refusal) throw new ApiError(403, account.refusal);
	if (opts.integrations && !account.integrations) {
		throw new ApiError(403, NOT_AUTHORIZED, 'This account has no integrations entitlement: webhooks are not available to it.');
	}
	return account;
}
