/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import type { FastifyReply, FastifyRequest } from 'fastify';

import { ACCOUNTS, rotateToken, tokenBook } from '../accounts';
import {
	formatCents,
	PRICE_KINDS,
	pricesOf,
	setPricesOf,
	wallet,
	type PriceKind,
} from '../charges';
import { badRequest } from '../errors';
import { objectBody, onlyFields, type Query } from '../http';
import { outbox } from '../lists/automations';
import { deliveryLog, settleDeliveries } from '../webhooks/delivery';
import type { RouteModule } from '../types';

/**
 * Control routes under `/_sandbox/` (not part of the API; no token): fault injection, charges,
 * prices, outbox, delivery log, token rotation, reset.
 *
 * A fault applies to the next `count` requests whose path starts with `path`, with the method and
 * the query parameters given (if given), after letting `skip` of them through. It strikes `before`
 * the service acts (the default: the call has no effect) or `after` it acted (the route runs, its
 * changes and charges happen, then the fault replaces the answer): it waits `latencyMs`, then loses
 * the connection (`drop`) or answers `status` (with `Retry-After` when `retryAfter` is given, and
 * `body` instead of an error object when given); with neither, the real answer follows the wait.
 */
interface Fault {
	path: string;
	method?: string;
	query: Record<string, string>;
	when: 'before' | 'after';
	status?: number;
	retryAfter?: string;
	body?: unknown;
	latencyMs?: number;
	drop: boolean;
	skip: number;
	count: number;
}

const FAULT_FIELDS = [
	'path',
	'method',
	'query',
	'when',
	'status',
	'retryAfter',
	'body',
	'latencyMs',
	'drop',
	'skip',
	'count',
];
const FAULT_EVENT_ID = 'flt-flt-flt';

function faultOf(raw: unknown): Fault {
	const body = objectBody(raw);
	onlyFields(body, FAULT_FIELDS);
	const invalid = (message: string) => badRequest('Invalid fault', message);
	if (typeof body.path !== 'string' || !body.path.startsWith('/'))
		throw invalid('path must be a path such as /v1/lists');
	if (body.method !== undefined && typeof body.method !== 'string')
		throw invalid('method must be an HTTP method such as POST');
	const query = body.query ?? {};
	if (
		typeof query !== 'object' ||
		query === null ||
		Array.isArray(query) ||
		Object.values(query).some((value) => typeof value !== 'string' && typeof value !== 'number')
	) {
		throw invalid(
			'query must be an object of query parameters and their values, e.g. {"Purchase": "1"}',
		);
	}
	const when = body.when ?? 'before';
	if (when !== 'before' && when !== 'after')
		throw invalid(
			'when must be "before" (the call has no effect) or "after" (the call is done, then the fault answers)',
		);
	const count = body.count ?? 1;
	if (!Number.isInteger(count) || (count as number) < 1)
		throw invalid('count must be a positive whole number');
	const skip = body.skip ?? 0;
	if (!Number.isInteger(skip) || (skip as number) < 0)
		throw invalid('skip must be a whole number of matching calls to let through first');
	if (
		body.status !== undefined &&
		!(
			Number.isInteger(body.status) &&
			(body.status as number) >= 200 &&
			(body.status as number) <= 599
		)
	)
		throw invalid('status must be an HTTP status from 200 to 599');
	if (
		body.latencyMs !== undefined &&
		!(typeof body.latencyMs === 'number' && body.latencyMs >= 0 && body.latencyMs <= 600_000)
	)
		throw invalid('latencyMs must be a number of milliseconds from 0 to 600000');
	if (body.drop !== undefined && typeof body.drop !== 'boolean')
		throw invalid('drop must be true or false');
	if (body.status === undefined && !body.drop && !body.latencyMs)
		throw invalid('give status, drop or latencyMs');
	if (body.body !== undefined && body.status === undefined)
		throw invalid('body is what a status fault answers: give status too');
	return {
		path: body.path,
		method: body.method?.toUpperCase(),
		query: Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)])),
		when,
		status: body.status as number | undefined,
		retryAfter: body.retryAfter === undefined ? undefined : String(body.retryAfter),
		body: body.body,
		latencyMs: body.latencyMs as number | undefined,
		drop: body.drop === true,
		skip: skip as number,
		count: count as number,
	};
}

function matches(fault: Fault, request: FastifyRequest): boolean {
	const [path, search = ''] = request.url.split('?', 2);
	const query = new URLSearchParams(search);
	return (
		fault.count > 0 &&
		path.startsWith(fault.path) &&
		(!fault.method || fault.method === request.method) &&
		Object.entries(fault.query).every(([name, value]) => query.get(name) === value)
	);
}

const pause = (ms: number | undefined) =>
	ms ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;

/** What a status fault answers: its body, or the service's error object with its eventid in `X-Prop-Request-Id`. */
function faultAnswer(fault: Fault, status: number, reply: FastifyReply): string {
	void reply
		.status(status)
		.header('content-type', 'application/json; charset=utf-8')
		.header('X-Prop-Request-Id', FAULT_EVENT_ID);
	if (fault.retryAfter !== undefined) void reply.header('Retry-After', fault.retryAfter);
	return JSON.stringify(
		fault.body ?? {
			error: status === 429 ? 'Too Many Requests' : 'Injected fault',
			eventid: FAULT_EVENT_ID,
		},
	);
}

export const controlRoutes: RouteModule = (app, ctx) => {
	const faults: Fault[] = [];
	/** Requests a fault strikes once the route has answered. */
	const strikeAfter = new WeakMap<FastifyRequest, Fault>();

	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith('/_sandbox/')) return;
		const fault = faults.find((candidate) => matches(candidate, request));
		if (!fault) return;
		if (fault.skip > 0) {
			fault.skip--;
			return;
		}
		fault.count--;
		if (fault.when === 'after') {
			strikeAfter.set(request, fault);
			return;
		}
		await pause(fault.latencyMs);
		if (fault.drop) {
			// Hijacked, the route never runs: the call has no effect.
			reply.hijack();
			request.raw.socket.destroy();
			return;
		}
		if (fault.status) return reply.send(faultAnswer(fault, fault.status, reply));
	});

	app.addHook('onSend', async (request, reply, payload) => {
		const fault = strikeAfter.get(request);
		if (!fault) return payload;
		strikeAfter.delete(request);
		await pause(fault.latencyMs);
		if (fault.drop) {
			request.raw.socket.destroy();
			return payload;
		}
		return fault.status ? faultAnswer(fault, fault.status, reply) : payload;
	});

	app.post('/_sandbox/faults', async (request) => {
		faults.push(faultOf(request.body));
		return { faults: faults.filter((f) => f.count > 0) };
	});

	app.delete('/_sandbox/faults', async () => {
		faults.length = 0;
		return { faults: [] };
	});

	app.get('/_sandbox/charges', async (request) => {
		const { token } = request.query as Query;
		const account = ACCOUNTS.find((candidate) => candidate.token === token);
		if (!account) throw badRequest('Unknown account', 'token must be one of the sandbox tokens');
		const purse = wallet(ctx, account);
		return {
			account: account.id,
			credits: purse.credits,
			balanceCents: purse.balanceCents,
			balance: formatCents(purse.balanceCents),
			log: purse.log,
		};
	});

	// An account's prices per charged record, in cents: the sandbox's own, or what was set for it.
	const accountNamed = (token: unknown) => {
		const account = ACCOUNTS.find((candidate) => candidate.token === token);
		if (!account) throw badRequest('Unknown account', 'token must be one of the sandbox tokens');
		return account;
	};
	app.get('/_sandbox/prices', async (request) => {
		const account = accountNamed((request.query as Query).token);
		return { account: account.id, pricesCents: pricesOf(ctx, account) };
	});
	app.put('/_sandbox/prices', async (request) => {
		const body = objectBody(request.body);
		onlyFields(body, ['token', 'pricesCents']);
		const account = accountNamed(body.token);
		const given = body.pricesCents;
		if (typeof given !== 'object' || given === null || Array.isArray(given))
			throw badRequest(
				'Invalid pricesCents',
				`pricesCents must be an object of prices in cents by kind: ${PRICE_KINDS.join(', ')}`,
			);
		const prices: Partial<Record<PriceKind, number>> = {};
		for (const [kind, cents] of Object.entries(given)) {
			if (!(PRICE_KINDS as string[]).includes(kind))
				throw badRequest(
					'Invalid pricesCents',
					`Unknown kind "${kind}": use ${PRICE_KINDS.join(', ')}`,
				);
			if (!Number.isSafeInteger(cents) || (cents as number) < 0 || (cents as number) > 1_000_000)
				throw badRequest(
					'Invalid pricesCents',
					`pricesCents.${kind} must be a whole number of cents from 0 to 1000000, got ${JSON.stringify(cents)}`,
				);
			prices[kind as PriceKind] = cents as number;
		}
		return { account: account.id, pricesCents: setPricesOf(ctx, account, prices) };
	});

	// A token rotation, as an account's owner does it in the service: a new token for the account,
	// the old one refused from then on (kept too with `keepOld`). Webhooks keep their secrets.
	app.post('/_sandbox/tokens/rotate', async (request) => {
		const body = objectBody(request.body);
		onlyFields(body, ['token', 'keepOld']);
		const keepOld = body.keepOld ?? false;
		if (typeof keepOld !== 'boolean')
			throw badRequest('Invalid keepOld', 'keepOld must be true or false');
		const rotated =
			typeof body.token === 'string' ? rotateToken(tokenBook(ctx), body.token, keepOld) : undefined;
		if (!rotated)
			throw badRequest(
				'Unknown token',
				'token must be a token of a sandbox account that is not rotated away',
			);
		ctx.store.save();
		return rotated;
	});

	app.get('/_sandbox/outbox', async () => ({ results: outbox(ctx) }));

	app.get('/_sandbox/deliveries', async (request) => {
		if ((request.query as Query).wait === '1') await settleDeliveries();
		return { results: deliveryLog(ctx) };
	});

	// A stand-in CRM for the example workflows: it keeps what it is sent.
	const crm = () => ctx.store.slice<Array<{ at: string; body: unknown }>>('crm', () => []);
	app.post('/_sandbox/crm', async (request) => {
		crm().push({ at: new Date().toISOString(), body: request.body });
		ctx.store.save();
		return { received: true };
	});
	app.get('/_sandbox/crm', async () => ({ results: crm() }));

	app.post('/_sandbox/reset', async () => {
		await settleDeliveries();
		faults.length = 0;
		ctx.store.reset();
		return { reset: true };
	});
};
