import { badRequest } from './errors';
import type { VariantName } from './types';

/**
 * Variants: the sandbox behaving like a service that differs from it where the API documents say
 * "not shown" or the service's notes only infer (docs/api.md, "Every guess"). Each is off by
 * default; `--variant a,b` (the CLI), the `variants` option or `PUT /_sandbox/variants` turn them on.
 * The transforms here are pure: `sandbox/routes/variants.ts` applies them to answers and requests,
 * `sandbox/webhooks/delivery.ts` to delivery bodies.
 */
/** The page size of `low-limit` and `short-page`: well under every maximum the node assumes. */
export const VARIANT_PAGE_MAX = 20;

export const VARIANTS: Record<VariantName, string> = {
	'delivery-array': 'every webhook delivery is a bare array, also of one event',
	'delivery-wrapper': 'every webhook delivery is an object with the events in `results`',
	'delivery-keys': 'deliveries name the event `EventType`, not `TriggerType`',
	'delivery-unknown-kind': 'deliveries name the event kinds `Added to List` and `Property Changed`',
	'money-numbers': '`totalCost` is a JSON number (1.5), not a decimal string',
	'low-limit': `a \`Limit\` above ${VARIANT_PAGE_MAX} is refused with 400 \`Invalid Limit\``,
	'short-page': `a page holds at most ${VARIANT_PAGE_MAX} records, whatever \`Limit\` asks, without saying so`,
	'no-result-count': 'charging answers carry no `resultCount`',
	'no-free-remaining': 'quotes carry no `quantityFreeRemaining`',
	'no-total-result-count': 'searches carry no `totalResultCount`',
	'no-results-array': 'answers carry no `results` array, also those that charge for records',
	'extra-fields': 'answers, their records and deliveries carry fields no document names',
	'no-eventid': 'error bodies carry no `eventid` and no `X-Prop-Request-Id` header',
	'no-retry-after': 'a 429 carries no `Retry-After`',
	'webhook-answer':
		'a created webhook is answered `{"webhook": {"WebhookID": …}}`, not in `results`',
	'automation-answer': 'a list\'s automation is answered `{"automation": {…}}`, not in `results`',
};

/** The unknown field `extra-fields` adds to answers, records and delivered events. */
export const EXTRA_FIELD = 'ServiceExtra';

export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];

/** Variant names from a list (the control route's body, the CLI's comma list), or 400 naming the wrong one. */
export function variantsOf(names: unknown): VariantName[] {
	if (!Array.isArray(names) || names.some((name) => typeof name !== 'string'))
		throw badRequest('Invalid variants', 'variants must be an array of variant names');
	for (const name of names as string[]) {
		if (!Object.hasOwn(VARIANTS, name))
			throw badRequest(
				'Invalid variants',
				`Unknown variant "${name}": use ${VARIANT_NAMES.join(', ')}`,
			);
	}
	return [...new Set(names as VariantName[])];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The record of `results[0]`, moved into an object named `key` (`webhook-answer`, `automation-answer`). */
function wrapped(body: Json, key: string): Json {
	const { results, ...rest } = body;
	return { ...rest, [key]: Array.isArray(results) ? results[0] : results };
}

/** An API answer's body as the variants in force change it; `endpoint` is "METHOD /path". */
export function variantBody(
	variants: ReadonlySet<VariantName>,
	body: unknown,
	status: number,
	endpoint = '',
): unknown {
	if (!isObject(body)) return body;
	let out: Json = { ...body };
	if (
		status < 400 &&
		variants.has('webhook-answer') &&
		endpoint === 'POST /v1/integrations/webhooks'
	)
		out = wrapped(out, 'webhook');
	if (
		status < 400 &&
		variants.has('automation-answer') &&
		/^GET \/v1\/lists\/[^/]+\/automations$/.test(endpoint)
	)
		out = wrapped(out, 'automation');
	if (variants.has('money-numbers') && typeof out.totalCost === 'string')
		out.totalCost = Number(out.totalCost);
	if (variants.has('no-result-count')) delete out.resultCount;
	if (variants.has('no-free-remaining')) delete out.quantityFreeRemaining;
	if (variants.has('no-total-result-count')) delete out.totalResultCount;
	if (variants.has('no-results-array') && status < 400) delete out.results;
	if (variants.has('no-eventid') && status >= 400) delete out.eventid;
	if (variants.has('extra-fields') && status < 400) {
		out[EXTRA_FIELD] = 'envelope';
		if (Array.isArray(out.results))
			out.results = out.results.map((record) =>
				isObject(record) ? { ...record, [EXTRA_FIELD]: 'record' } : record,
			);
	}
	return out;
}

const UNKNOWN_KINDS: Record<string, string> = {
	'New Match': 'Added to List',
	Change: 'Property Changed',
};

/** What a webhook delivery of these events sends, as the variants in force shape it. */
export function deliveryBody(
	variants: ReadonlySet<VariantName>,
	events: Array<Record<string, unknown>>,
): unknown {
	const shaped = events.map((event) => {
		const out: Json = { ...event };
		if (variants.has('delivery-unknown-kind') && typeof out.TriggerType === 'string')
			out.TriggerType = UNKNOWN_KINDS[out.TriggerType] ?? out.TriggerType;
		if (variants.has('extra-fields')) out[EXTRA_FIELD] = 'event';
		if (!variants.has('delivery-keys')) return out;
		const { TriggerType, ...rest } = out;
		return { EventType: TriggerType, ...rest };
	});
	if (variants.has('delivery-wrapper')) return { results: shaped };
	if (variants.has('delivery-array')) return shaped;
	return shaped.length === 1 ? shaped[0] : shaped;
}
