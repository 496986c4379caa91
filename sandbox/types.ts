/**
 * The types the parts of the sandbox share. Route modules, state modules and tests import them from
 * here; `server.ts` composes the routes and imports nothing back from them but their registration.
 */
import type { FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';

import type { SandboxStore } from './store';

/** A rate above which the sandbox answers 429 (sandbox/routes/rateLimit.ts). */
export interface RateLimit {
	perSecond: number;
	/** Requests the bucket holds; default `perSecond` (at least 1). */
	burst?: number;
}

/**
 * A way the real service may differ from what the sandbox does by default, where the API documents
 * leave it open or the service's notes only infer it (docs/api.md, "Every guess";
 * sandbox/variants.ts).
 */
export type VariantName =
	| 'delivery-array'
	| 'delivery-wrapper'
	| 'delivery-keys'
	| 'delivery-unknown-kind'
	| 'money-numbers'
	| 'low-limit'
	| 'short-page'
	| 'no-result-count'
	| 'no-free-remaining'
	| 'no-total-result-count'
	| 'no-results-array'
	| 'extra-fields'
	| 'no-eventid'
	| 'no-retry-after'
	| 'webhook-answer'
	| 'automation-answer';

export interface SandboxOptions {
	/** 0 takes a free port. Default 8787. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Persist the state to this JSON file and reload it at start. */
	dataFile?: string;
	/** Deliver webhooks to non-loopback hosts too (off by default: the sandbox only calls 127.0.0.0/8 and ::1). */
	allowRemoteWebhooks?: boolean;
	/** Answer 429 above this rate (sandbox/routes/rateLimit.ts). */
	rateLimit?: RateLimit;
	/**
	 * A certificate (PEM) that webhook deliveries trust beside the usual ones: for a sandbox started
	 * in a process of its own, `NODE_EXTRA_CA_CERTS` does the same; the benchmark runs the sandbox
	 * in its own process and delivers over TLS with a certificate made after that process started.
	 */
	webhookCa?: string;
	/** Behave like a service that differs in these ways (sandbox/variants.ts). */
	variants?: VariantName[];
}

export interface SandboxContext {
	store: SandboxStore;
	options: Required<Pick<SandboxOptions, 'allowRemoteWebhooks'>>;
	/** The variants in force; a reset keeps them (sandbox/variants.ts). */
	variants: Set<VariantName>;
	/** What webhook deliveries are sent with when `webhookCa` is given; otherwise undici's global dispatcher. */
	webhookDispatcher?: Dispatcher;
}

/** A route module registers its routes on the app; it keeps its own state in `ctx.store`. */
export type RouteModule = (app: FastifyInstance, ctx: SandboxContext) => void;

export interface RunningSandbox {
	url: string;
	port: number;
	ctx: SandboxContext;
	app: FastifyInstance;
	close(): Promise<void>;
}
