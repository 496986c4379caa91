import { ApiError } from './errors';

/** The sandbox's fixed accounts, one per token (README, "Sandbox accounts"). */
export interface AccountSpec {
	token: string;
	/** Stable key of the account's data inside the sandbox state. */
	id: string;
	active: boolean;
	/** Free export credits at start (each pays for one charged record). */
	startingCredits: number;
	/** Balance at start, in integer cents. */
	startingBalanceCents: number;
}

export const ACCOUNTS: readonly AccountSpec[] = [
	{ token: 'sandbox-token', id: 'acct-1', active: true, startingCredits: 100, startingBalanceCents: 500_000 },
	{ token: 'sandbox-token-2', id: 'acct-2', active: true, startingCredits: 100, startingBalanceCents: 500_000 },
	{ token: 'sandbox-broke', id: 'acct-broke', active: true, startingCredits: 0, startingBalanceCents: 0 },
	{ token: 'sandbox-inactive', id: 'acct-inactive', active: false, startingCredits: 0, startingBalanceCents: 0 },
];

const byToken = new Map(ACCOUNTS.map((account) => [account.token, account]));

export interface AuthHeaders {
	authorization?: string;
	'x-prop-access-token'?: string;
}

/**
 * Resolves the calling account, or throws the error the service gives.
 * `hideExistence`: the route answers 404 instead of 401 when no credentials are sent
 * (seed 000, Authentication 5). `acceptAccessTokenHeader`: the import POST also takes
 * `X-Prop-Access-Token`.
 */
export function authenticate(
	headers: AuthHeaders,
	opts: { hideExistence?: boolean; acceptAccessTokenHeader?: boolean } = {},
): AccountSpec {
	const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim();
	const token = bearer ?? (opts.acceptAccessTokenHeader ? headers['x-prop-access-token'] : undefined);
	if (!token) {
		if (opts.hideExistence) throw new ApiError(404, 'Resource does not exist for given id');
		throw new ApiError(401, 'Invalid or expired token');
	}
	const account = byToken.get(token);
	if (!account) throw new ApiError(401, 'Invalid or expired token');
	if (!account.active) throw new ApiError(403, 'You are not authorized to use this service');
	return account;
}
