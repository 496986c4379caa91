import { badRequest } from '../errors';
import { objectBody, onlyFields } from '../http';
import type { RateLimit, RouteModule } from '../types';

const EVENT_ID = 'rtl-rtl-rtl';
const RATE_FIELDS = ['perSecond', 'burst'];

export function rateLimitOf(raw: unknown): RateLimit | undefined {
	const body = objectBody(raw);
	onlyFields(body, RATE_FIELDS);
	if (body.perSecond === null) return undefined;
	const positive = (value: unknown) =>
		typeof value === 'number' && Number.isFinite(value) && value > 0;
	if (!positive(body.perSecond))
		throw badRequest(
			'Invalid rate limit',
			'perSecond must be a number of requests above 0, or null',
		);
	if (body.burst !== undefined && !(Number.isInteger(body.burst) && positive(body.burst)))
		throw badRequest('Invalid rate limit', 'burst must be a whole number of requests above 0');
	return { perSecond: body.perSecond as number, burst: body.burst as number | undefined };
}

/**
 * A service that answers 429 above a set rate, as a real one does: a bucket of `burst` requests
 * that refills at `perSecond`; a request to the API (not `/_sandbox/`) finding it empty is answered
 * 429 with `Retry-After` (whole seconds until the bucket holds a request again) and has no effect.
 * Set with `--rate-limit N` (the sandbox's CLI), the `rateLimit` option, or
 * `POST /_sandbox/rate-limit {"perSecond", "burst"?}` (`{"perSecond": null}` lifts it);
 * `GET /_sandbox/rate-limit` says how many calls it refused.
 */
export function rateLimitRoutes(initial: RateLimit | undefined): RouteModule {
	return (app) => {
		let limit = initial;
		let tokens = 0;
		let filledAt = 0;
		let refused = 0;
		const set = (next: RateLimit | undefined) => {
			limit = next;
			tokens = next ? capacity(next) : 0;
			filledAt = Date.now();
		};
		const capacity = (rate: RateLimit) => rate.burst ?? Math.max(1, Math.floor(rate.perSecond));
		set(initial);

		app.addHook('onRequest', async (request, reply) => {
			if (!limit || !request.url.startsWith('/v1/')) return;
			const now = Date.now();
			tokens = Math.min(capacity(limit), tokens + ((now - filledAt) / 1000) * limit.perSecond);
			filledAt = now;
			if (tokens >= 1) {
				tokens--;
				return;
			}
			refused++;
			const seconds = Math.max(1, Math.ceil((1 - tokens) / limit.perSecond));
			return reply
				.status(429)
				.header('content-type', 'application/json; charset=utf-8')
				.header('Retry-After', String(seconds))
				.header('X-Prop-Request-Id', EVENT_ID)
				.send(JSON.stringify({ error: 'Too Many Requests', eventid: EVENT_ID }));
		});

		app.post('/_sandbox/rate-limit', async (request) => {
			set(rateLimitOf(request.body));
			return { rateLimit: limit ?? null, refused };
		});
		app.get('/_sandbox/rate-limit', async () => ({ rateLimit: limit ?? null, refused }));
	};
}
