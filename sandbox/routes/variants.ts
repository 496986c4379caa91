import { badRequest } from '../errors';
import { objectBody, onlyFields, type Query } from '../http';
import { VARIANT_NAMES, VARIANT_PAGE_MAX, VARIANTS, variantBody, variantsOf } from '../variants';
import type { RouteModule } from '../types';

/**
 * Applies the variants in force (sandbox/variants.ts) to the API's requests and answers, and the
 * control routes that switch them: `PUT /_sandbox/variants {"variants": [...]}` (`[]` turns them
 * all off), `GET /_sandbox/variants` (those in force, and every variant with what it does).
 * A reset keeps them, as it keeps a rate limit.
 */
export const variantRoutes: RouteModule = (app, ctx) => {
	// A lower maximum of `Limit`: refused (`low-limit`) or silently cut (`short-page`).
	app.addHook('preValidation', async (request) => {
		if (!request.url.startsWith('/v1/')) return;
		const query = request.query as Query;
		const limit = Number(query.Limit);
		if (query.Limit === undefined || !(limit > VARIANT_PAGE_MAX)) return;
		if (ctx.variants.has('low-limit'))
			throw badRequest('Invalid Limit', `Limit must be at most ${VARIANT_PAGE_MAX}`);
		if (ctx.variants.has('short-page')) query.Limit = String(VARIANT_PAGE_MAX);
	});

	// After the faults' own answer (controlRoutes' onSend runs first): a fault's 429 is changed too.
	app.addHook('onSend', async (request, reply, payload) => {
		if (ctx.variants.size === 0 || request.url.startsWith('/_sandbox/')) return payload;
		const status = reply.statusCode;
		if (status >= 400 && ctx.variants.has('no-eventid')) reply.removeHeader('X-Prop-Request-Id');
		if (status === 429 && ctx.variants.has('no-retry-after')) reply.removeHeader('Retry-After');
		if (typeof payload !== 'string' || !payload.startsWith('{')) return payload;
		const endpoint = `${request.method} ${request.url.split('?')[0]}`;
		return JSON.stringify(variantBody(ctx.variants, JSON.parse(payload), status, endpoint));
	});

	const current = () => ({ variants: [...ctx.variants], known: VARIANTS });
	app.get('/_sandbox/variants', async () => current());
	app.put('/_sandbox/variants', async (request) => {
		const body = objectBody(request.body);
		onlyFields(body, ['variants']);
		if (body.variants === undefined)
			throw badRequest('Invalid variants', `give variants: ${VARIANT_NAMES.join(', ')}`);
		ctx.variants = new Set(variantsOf(body.variants));
		return current();
	});
};
