import { ACCOUNTS } from '../accounts';
import { formatCents, wallet } from '../charges';
import { badRequest } from '../errors';
import { objectBody, type Query } from '../http';
import { outbox } from '../lists/automations';
import { deliveryLog, settleDeliveries } from '../lists/delivery';
import type { RouteModule } from '../server';

/**
 * Control routes under `/_sandbox/` (not part of the API; no token): fault injection, charges,
 * outbox, delivery log, reset. Faults apply to the next `count` requests whose path starts with
 * `path` (and the method, if given).
 */
interface Fault {
	path: string;
	method?: string;
	status?: number;
	retryAfter?: string;
	latencyMs?: number;
	drop?: boolean;
	count: number;
}

export const controlRoutes: RouteModule = (app, ctx) => {
	const faults: Fault[] = [];

	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith('/_sandbox/')) return;
		const path = request.url.split('?')[0];
		const fault = faults.find((f) => f.count > 0 && path.startsWith(f.path) && (!f.method || f.method === request.method));
		if (!fault) return;
		fault.count--;
		if (fault.latencyMs) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
		if (fault.drop) {
			request.raw.socket.destroy();
			return reply;
		}
		if (fault.status) {
			if (fault.retryAfter !== undefined) void reply.header('Retry-After', fault.retryAfter);
			return reply
				.status(fault.status)
				.header('X-Prop-Request-Id', 'flt-flt-flt')
				.send({ error: fault.status === 429 ? 'Too Many Requests' : 'Injected fault', eventid: 'flt-flt-flt' });
		}
	});

	app.post('/_sandbox/faults', async (request) => {
		const body = objectBody(request.body);
		if (typeof body.path !== 'string' || !body.path.startsWith('/')) throw badRequest('Invalid fault', 'path must be a path such as /v1/lists');
		const count = body.count === undefined ? 1 : Number(body.count);
		if (!Number.isInteger(count) || count < 1) throw badRequest('Invalid fault', 'count must be a positive whole number');
		if (body.status === undefined && !body.drop && !body.latencyMs) throw badRequest('Invalid fault', 'give status, drop or latencyMs');
		faults.push({
			path: body.path,
			method: body.method as string | undefined,
			status: body.status as number | undefined,
			retryAfter: body.retryAfter === undefined ? undefined : String(body.retryAfter),
			latencyMs: body.latencyMs as number | undefined,
			drop: body.drop === true,
			count,
		});
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
		return { account: account.id, credits: purse.credits, balanceCents: purse.balanceCents, balance: formatCents(purse.balanceCents), log: purse.log };
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
