import type { AccountSpec } from './accounts';
import { ApiError } from './errors';
import type { SandboxContext } from './types';

/**
 * Money in the sandbox, in integer cents. Prices per charged record; `Purchase=0` quotes (free,
 * changes nothing), `Purchase=1` uses free export credits first, then the balance; a call that
 * cannot be paid answers 402 and charges and changes nothing. Every charge goes to a per-account log.
 *
 * The sandbox's own prices: the documents give none, and the node's table
 * (nodes/PropRadar/money/quote.ts) is what the node assumes, not what the service charges. These
 * are every account's at start; `PUT /_sandbox/prices` sets an account's own (`pricesOf`).
 */
export const PRICES_CENTS = {
	/** A property returned (GET /v1/properties/{PropID}, POST /v1/properties). */
	property: 10,
	/** Evictions, comps, parcels, transactions: one charge per call that returns data. */
	propertyDetail: 25,
	/** An owner returned (GET /v1/properties/{PropID}/persons). */
	person: 15,
	/** A bankruptcy, divorce, lien, probate or relative record returned. */
	personRecord: 20,
	/** A phone bought, by the Phone endpoint or by an automation (per triggered record). */
	phone: 40,
	/** An e-mail address bought, likewise. */
	email: 30,
	/** An imported record. */
	importRecord: 5,
} as const;

export type PriceKind = keyof typeof PRICES_CENTS;

/** What a charge is for: a kind of record, or an automation's purchase (charged at the phone or e-mail price). */
export type ChargeKind = PriceKind | 'automationPhone' | 'automationEmail';

export const PRICE_KINDS = Object.keys(PRICES_CENTS) as PriceKind[];

const priceKindOf = (kind: ChargeKind): PriceKind =>
	kind === 'automationPhone' ? 'phone' : kind === 'automationEmail' ? 'email' : kind;

/** The prices set for accounts through the control routes, by account id (the state's slice `prices`). */
function setPrices(ctx: SandboxContext): Record<string, Partial<Record<PriceKind, number>>> {
	return ctx.store.slice<Record<string, Partial<Record<PriceKind, number>>>>('prices', () => ({}));
}

/** What `account` pays per charged record of each kind: the sandbox's prices, or the ones set for it. */
export function pricesOf(ctx: SandboxContext, account: AccountSpec): Record<PriceKind, number> {
	return { ...PRICES_CENTS, ...setPrices(ctx)[account.id] };
}

/** Sets some of `account`'s prices (whole cents, 0 or more); the others stay as they are. */
export function setPricesOf(
	ctx: SandboxContext,
	account: AccountSpec,
	prices: Partial<Record<PriceKind, number>>,
): Record<PriceKind, number> {
	const all = setPrices(ctx);
	all[account.id] = { ...all[account.id], ...prices };
	ctx.store.save();
	return pricesOf(ctx, account);
}

/**
 * How many records a call that returns `records` of `kind` is charged for: one per record, but one
 * per call that returns data for the property details (evictions, comps, parcels, transactions).
 */
export function recordsCharged(kind: PriceKind, records: number): number {
	return kind === 'propertyDetail' ? Math.min(records, 1) : records;
}

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
	wallets[account.id] ??= {
		credits: account.startingCredits,
		balanceCents: account.startingBalanceCents,
		log: [],
	};
	return wallets[account.id];
}

export const formatCents = (cents: number) => (cents / 100).toFixed(2);

export interface Quote {
	quantity: number;
	creditsUsed: number;
	cents: number;
}

export function quote(
	ctx: SandboxContext,
	account: AccountSpec,
	kind: ChargeKind,
	quantity: number,
): Quote {
	const creditsUsed = Math.min(wallet(ctx, account).credits, quantity);
	return {
		quantity,
		creditsUsed,
		cents: (quantity - creditsUsed) * pricesOf(ctx, account)[priceKindOf(kind)],
	};
}

/** The `Purchase` query parameter of a charging endpoint: required, 0 or 1 (or true/false). */
export function readPurchase(query: Record<string, unknown>): boolean {
	const value = query.Purchase;
	if (value === '1' || value === 'true') return true;
	if (value === '0' || value === 'false') return false;
	throw new ApiError(
		400,
		'Invalid Purchase',
		value === undefined
			? 'Purchase is required: 0 previews the cost, 1 buys'
			: `Purchase must be 0 or 1, got "${String(value)}"`,
	);
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
	if (!purchase)
		return {
			totalCost: formatCents(q.cents),
			resultCount: quantity,
			quantityFreeRemaining: purse.credits,
		};
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
		purse.log.push({
			at: new Date().toISOString(),
			kind,
			quantity,
			creditsUsed: q.creditsUsed,
			cents: q.cents,
			what,
		});
		ctx.store.save();
	}
	return { totalCost: formatCents(q.cents), resultCount: quantity };
}
