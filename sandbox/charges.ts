import { LIST_PRICES_CENTS } from '../nodes/PropRadar/shared/prices';
import type { AccountSpec } from './accounts';
import { ApiError } from './errors';
import type { SandboxContext } from './types';

/**
 * Money in the sandbox, in integer cents. Prices per charged record; `Purchase=0` quotes (free,
 * changes nothing), `Purchase=1` uses free export credits first, then the balance; a call that
 * cannot be paid answers 402 and charges and changes nothing. Every charge goes to a per-account log.
 */
export const PRICES_CENTS = {
	...LIST_PRICES_CENTS,
	automationPhone: LIST_PRICES_CENTS.phone,
	automationEmail: LIST_PRICES_CENTS.email,
} as const;

export type ChargeKind = keyof typeof PRICES_CENTS;

export interface ChargeEntry {
	at: string;
	kind: ChargeKind;
	quantity: number;
	creditsUsed: number;
	cents: number;
	what: string;
}

export interface Wallet {
	credits: number;
	balanceCents: number;
	log: ChargeEntry[];
}

export function wallet(ctx: SandboxContext, account: AccountSpec): Wallet {
	const wallets = ctx.store.slice<Record<string, Wallet>>('wallets', () => ({}));
	wallets[account.id] ??= { credits: account.startingCredits, balanceCents: account.startingBalanceCents, log: [] };
	return wallets[account.id];
}

export const formatCents = (cents: number) => (cents / 100).toFixed(2);

export interface Quote {
	quantity: number;
	creditsUsed: number;
	cents: number;
}

export function quote(ctx: SandboxContext, account: AccountSpec, kind: ChargeKind, quantity: number): Quote {
	const creditsUsed = Math.min(wallet(ctx, account).credits, quantity);
	return { quantity, creditsUsed, cents: (quantity - creditsUsed) * PRICES_CENTS[kind] };
}

/** The `Purchase` query parameter of a charging endpoint: required, 0 or 1 (or true/false). */
export function readPurchase(query: Record<string, unknown>): boolean {
	const value = query.Purchase;
	if (value === '1' || value === 'true') return true;
	if (value === '0' || value === 'false') return false;
	throw new ApiError(400, 'Invalid Purchase', value === undefined ? 'Purchase is required: 0 previews the cost, 1 buys' : `Purchase must be 0 or 1, got "${String(value)}"`);
}

/**
 * Charges for `quantity` records of `kind` (or quotes them). Throws 402 before anything changes when
 * the account cannot pay. Returns the envelope fields of a charging answer.
 */
export function charge(
	ctx: SandboxContext,
	account: AccountSpec,
	kind: ChargeKind,
	quantity: number,
	purchase: boolean,
	what: string,
): { totalCost: string; resultCount: number; quantityFreeRemaining?: number } {
	const q = quote(ctx, account, kind, quantity);
	const purse = wallet(ctx, account);
	if (!purchase) return { totalCost: formatCents(q.cents), resultCount: quantity, quantityFreeRemaining: purse.credits };
	if (q.cents > purse.balanceCents) {
		throw new ApiError(
			402,
			'Insufficient Balance',
			`This purchase costs $${formatCents(q.cents)} and the account balance is $${formatCents(purse.balanceCents)}. Add funds, or preview the cost with Purchase=0.`,
			'Insufficient Balance',
		);
	}
	if (quantity > 0) {
		purse.credits -= q.creditsUsed;
		purse.balanceCents -= q.cents;
		purse.log.push({ at: new Date().toISOString(), kind, quantity, creditsUsed: q.creditsUsed, cents: q.cents, what });
		ctx.store.save();
	}
	return { totalCost: formatCents(q.cents), resultCount: quantity };
}
