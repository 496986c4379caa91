import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';

import { ApiError, errorBody, newEventId } from './errors';
import { bindContext, parseQuery } from './http';
import { SandboxStore } from './store';
import { trackWrites } from './lists/membership';
import { accountRoutes } from './routes/accounts';
import { automationRoutes } from './routes/automations';
import { controlRoutes } from './routes/control';
import { importRoutes } from './routes/imports';
import { listItemRoutes } from './routes/listItems';
import { listRoutes } from './routes/lists';
import { personRoutes } from './routes/persons';
import { propertyRoutes } from './routes/properties';
import { rateLimitRoutes } from './routes/rateLimit';
import { requestLogRoutes } from './routes/requests';
import { simulateRoutes } from './routes/simulate';
import { variantRoutes } from './routes/variants';
import { webhookRoutes } from './routes/webhooks';
import { variantsOf } from './variants';
import { webhookDispatcher } from './webhooks/delivery';
import type { RouteModule, RunningSandbox, SandboxContext, SandboxOptions } from './types';

const ROUTE_MODULES: RouteModule[] = [
	requestLogRoutes, // first: every call is logged, also one a fault or the rate limit answers
	controlRoutes, // its fault-injection hook must see every request
	variantRoutes, // after it: a fault's answer is shaped by the variants too
	accountRoutes,
	propertyRoutes,
	personRoutes,
	listRoutes,
	listItemRoutes,
	importRoutes,
	automationRoutes,
	webhookRoutes,
	simulateRoutes,
];

export function buildSandboxApp(options: SandboxOptions = {}): {
	app: FastifyInstance;
	ctx: SandboxContext;
} {
	// Unknown body fields are refused, not silently dropped; types are not coerced.
	const app = Fastify({
		logger: false,
		bodyLimit: 64 * 1024 * 1024,
		ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
		routerOptions: { querystringParser: parseQuery },
	});
	const ctx: SandboxContext = {
		store: new SandboxStore(options.dataFile),
		options: { allowRemoteWebhooks: options.allowRemoteWebhooks ?? false },
		webhookDispatcher: webhookDispatcher(options.webhookCa),
		variants: new Set(variantsOf(options.variants ?? [])),
	};
	app.addHook('onClose', async () => {
		await ctx.webhookDispatcher?.close();
	});

	app.setErrorHandler((err: FastifyError | ApiError, _request, reply) => {
		const eventid = newEventId();
		let apiError: ApiError;
		if (err instanceof ApiError) {
			apiError = err;
		} else if ((err as FastifyError).validation) {
			const fastifyErr = err as FastifyError;
			const first = fastifyErr.validation?.[0] as
				| { keyword?: string; instancePath?: string; params?: { additionalProperty?: string } }
				| undefined;
			const extra = first?.params?.additionalProperty;
			apiError = extra
				? new ApiError(
						400,
						'Unexpected payload field',
						`${fastifyErr.validationContext ?? 'body'}${first?.instancePath ?? ''}: ${extra} is not an accepted field`,
					)
				: new ApiError(400, 'Invalid request', fastifyErr.message);
		} else if (
			(err as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
			err instanceof SyntaxError
		) {
			apiError = new ApiError(400, 'Invalid JSON', `The body is not valid JSON: ${err.message}`);
		} else if ((err as FastifyError).statusCode && (err as FastifyError).statusCode! < 500) {
			apiError = new ApiError((err as FastifyError).statusCode!, err.message);
		} else {
			apiError = new ApiError(500, 'Internal error');
		}
		void reply
			.status(apiError.status)
			.header('X-Prop-Request-Id', eventid)
			.send(errorBody(apiError, eventid));
	});
	app.setNotFoundHandler((_request, reply) => {
		const eventid = newEventId();
		void reply
			.status(404)
			.header('X-Prop-Request-Id', eventid)
			.send(errorBody(new ApiError(404, 'Resource does not exist for given id'), eventid));
	});

	bindContext(app, ctx);
	// Dynamic lists are refreshed on a read only after a write (sandbox/lists/membership.ts).
	trackWrites(app);
	// After the faults' hook, before the API's routes: a refused call has no effect.
	const routes = [
		...ROUTE_MODULES.slice(0, 3),
		rateLimitRoutes(options.rateLimit),
		...ROUTE_MODULES.slice(3),
	];
	for (const register of routes) register(app, ctx);
	return { app, ctx };
}

/** Starts the sandbox; tests call this in-process and `close()` it afterwards. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const { app, ctx } = buildSandboxApp(options);
	const host = options.host ?? '127.0.0.1';
	await app.listen({ port: options.port ?? 8787, host });
	const address = app.server.address();
	const port = typeof address === 'object' && address ? address.port : (options.port ?? 8787);
	return { url: `http://${host}:${port}`, port, ctx, app, close: () => app.close() };
}
