import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../shared/answers';
import { switchProblem } from '../shared/triggerOptions';
import { DELIVERY_TRIGGER_TYPES } from '../shared/vocabulary';
import { sortEvents, type TriggerEvent } from './wiring';

const WRAPPER_KEYS =
	/^(results|events|properties|data|items|records|deliveries|matches|changes|payload)$/i;
const TYPE_KEYS = /^(trigger_?type|event_?type|trigger|event|type)$/i;

function eventsInside(body: IDataObject): unknown[] | undefined {
	const keys = Object.keys(body);
	const named = keys.find((key) => WRAPPER_KEYS.test(key) && Array.isArray(body[key]));
	if (named !== undefined) return body[named] as unknown[];
	// An unnamed wrapper: its one array of objects, when it is no event itself.
	const arrays = keys.filter(
		(key) =>
			Array.isArray(body[key]) &&
			(body[key] as unknown[]).length > 0 &&
			(body[key] as unknown[]).every(isObject),
	);
	if (arrays.length !== 1 || keys.some((key) => /^propid$/i.test(key))) return undefined;
	return body[arrays[0]] as unknown[];
}

function unwrap(body: IDataObject): unknown[] {
	const inside = eventsInside(body);
	if (inside === undefined) return [body];
	// The wrapper's own fields (a TriggerType, a ListID) go to each event, the event's own first.
	const shared = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== inside));
	return inside.map((event) => (isObject(event) ? { ...shared, ...event } : event));
}

// The body is inferred (docs/api.md); one n8n could not parse as JSON arrives as text or bytes.
export function parseDelivery(body: unknown): { events: IDataObject[] } | { malformed: string } {
	let value = body;
	if (typeof value === 'string' || value instanceof Uint8Array) {
		try {
			value = JSON.parse(typeof value === 'string' ? value : new TextDecoder().decode(value));
		} catch {
			return { malformed: 'The body is not JSON' };
		}
	}
	if (value === null || value === undefined) return { malformed: 'The body is empty' };
	// The e2e tier's probe relies on it: an empty object is answered 400 once the secret is served.
	if (isObject(value) && Object.keys(value).length === 0)
		return { malformed: 'The body holds no event' };
	const events = Array.isArray(value) ? value : isObject(value) ? unwrap(value) : undefined;
	if (events === undefined) return { malformed: 'The body is not a JSON object' };
	const index = events.findIndex((event) => !isObject(event));
	if (index !== -1) return { malformed: `Element ${index} is not a JSON object` };
	return { events: events as IDataObject[] };
}

export function eventOfTriggerType(triggerType: unknown): TriggerEvent | undefined {
	if (triggerType === DELIVERY_TRIGGER_TYPES.newMatch) return 'newMatches';
	if (triggerType === DELIVERY_TRIGGER_TYPES.change) return 'statusChanges';
	const word = String(triggerType ?? '')
		.toLowerCase()
		.replace(/[^a-z]/g, '');
	if (/^newmatch(es)?$/.test(word)) return 'newMatches';
	if (/^(status)?changes?$/.test(word)) return 'statusChanges';
	return undefined;
}

function eventOf(event: IDataObject): TriggerEvent | undefined {
	if (event.TriggerType !== undefined) return eventOfTriggerType(event.TriggerType);
	const key = Object.keys(event).find((candidate) => TYPE_KEYS.test(candidate));
	return key === undefined ? undefined : eventOfTriggerType(event[key]);
}

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

// Derived when needed: nothing in the static data can sign a delivery (docs/trigger.md, "Secrets at rest").
export function deliverySecret(accessToken: string, salt: unknown): string {
	if (accessToken === '' || typeof salt !== 'string' || salt === '') return '';
	return createHmac('sha256', accessToken)
		.update(`n8n-nodes-propradar trigger delivery:${salt}`, 'utf8')
		.digest('hex');
}

export function sameSecret(a: string, b: string): boolean {
	return a !== '' && b !== '' && timingSafeEqual(digest(a), digest(b));
}

// Both sides hashed to one length first: the time taken says nothing of what was presented, its length included.
export function bearerMatches(header: unknown, secret: string): boolean {
	if (secret === '') return false;
	const presented =
		typeof header === 'string' ? (/^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '') : '';
	return timingSafeEqual(digest(presented), digest(secret)) && presented !== '';
}

const wasNone = (from: string | undefined) =>
	from !== undefined && /^(none|null)?$/i.test(from.trim());

// A change is known by its label; a new listing or foreclosure also by a status changed from None.
export const CHANGE_KINDS = {
	newTransfer: {
		name: 'New Transfer (Sale)',
		matches: (label) => /transfer|sale|deed/.test(label),
	},
	newLoan: { name: 'New Loan', matches: (label) => /loan|mortgage/.test(label) },
	newListing: {
		name: 'New Listing',
		matches: (label: string, from?: string) =>
			/listing|listed/.test(label) &&
			(!/status|price/.test(label) || (/status/.test(label) && wasNone(from))),
	},
	listingStatus: {
		name: 'Listing Status',
		matches: (label) => /listing|listed/.test(label) && /status/.test(label),
	},
	listingPrice: {
		name: 'Listing Price',
		matches: (label) => /listing|list price/.test(label) && /price/.test(label),
	},
	newForeclosure: {
		name: 'New Foreclosure',
		matches: (label: string, from?: string) =>
			/foreclosure|default|auction/.test(label) &&
			(!/status|stage/.test(label) || (/foreclosure/.test(label) && wasNone(from))),
	},
	foreclosureStatus: {
		name: 'Foreclosure Status',
		matches: (label) => /foreclosure/.test(label) && /status|stage/.test(label),
	},
} as const satisfies Record<
	string,
	{ name: string; matches: (label: string, from?: string) => boolean }
>;

export type ChangeKind = keyof typeof CHANGE_KINDS;

// `Change1`..`Change3` hold `"<Field label>:<old>:<new>"`.
export function changesOf(event: IDataObject): Array<{ label: string; from: string | undefined }> {
	return Object.keys(event)
		.filter((key) => /^Change\d+$/.test(key))
		.map((key) => String(event[key] ?? '').split(':'))
		.map(([label, from]) => ({ label: label.trim().toLowerCase(), from }))
		.filter((change) => change.label !== '');
}

// No changeKinds: every kind of change.
interface DeliveryFilter {
	events: TriggerEvent[];
	changeKinds: ChangeKind[];
}

function listOf(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return [];
	if (Array.isArray(value)) return value.map((entry) => String(entry).trim());
	if (typeof value === 'string')
		return value
			.split(',')
			.map((entry) => entry.trim())
			.filter(Boolean);
	return undefined;
}

// Checked at activation, yet an expression could give something else later.
// A Change Kind that is none is refused: passing over it would widen the filter.
export function deliverySettingsOf(context: IHookFunctions | IWebhookFunctions) {
	const refuse = (problem: string, description?: string) =>
		new NodeOperationError(context.getNode(), problem, { description });
	const events = context.getNodeParameter('events', []);
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const chosen = listOf(events);
	// Only known events, once each: an unknown or repeated one makes it shorter than chosen.
	const known = sortEvents((chosen ?? []) as TriggerEvent[]);
	if (!chosen || known.length === 0 || known.length !== chosen.length) {
		throw refuse(
			`Events: choose New Matches, Status Changes or both (got ${chosen ? `"${chosen.join(', ')}"` : JSON.stringify(events)})`,
		);
	}
	const kinds = listOf(options.changeKinds);
	const notAKind = kinds?.find((kind) => !Object.hasOwn(CHANGE_KINDS, kind));
	if (!kinds || notAKind !== undefined) {
		throw refuse(
			kinds
				? `Change Kinds: "${notAKind}" is no kind of change`
				: `Change Kinds: a list of kinds of change; got ${JSON.stringify(options.changeKinds)}`,
			`Use any of ${Object.entries(CHANGE_KINDS)
				.map(([value, kind]) => `"${value}" (${kind.name})`)
				.join(', ')}.`,
		);
	}
	const window = options.redeliveryWindowSeconds ?? 600;
	const seconds =
		typeof window === 'number'
			? window
			: typeof window === 'string' && window.trim() !== ''
				? Number(window)
				: NaN;
	if (!Number.isFinite(seconds) || seconds < 0) {
		throw refuse(
			`Redelivery Window (Seconds): a number of seconds from 0 (0 keeps every delivery); got ${JSON.stringify(window)}`,
		);
	}
	const split = options.splitIntoItems ?? true;
	const problem = switchProblem('Split Into Items', split);
	if (problem) throw refuse(problem);
	return {
		filter: { events: known, changeKinds: kinds as ChangeKind[] },
		windowMs: seconds * 1000,
		splitIntoItems: split === true,
	};
}

export function wanted(event: IDataObject, filter: DeliveryFilter): boolean {
	const matched = eventOf(event);
	if (!matched || !filter.events.includes(matched)) return false;
	if (matched !== 'statusChanges' || filter.changeKinds.length === 0) return true;
	const changes = changesOf(event);
	return filter.changeKinds.some((kind) =>
		changes.some((change) => CHANGE_KINDS[kind].matches(change.label, change.from)),
	);
}

// An event it cannot tell passes, named `unknown`, unless Change Kinds is chosen: it might be of another kind.
export function sortDelivered(events: IDataObject[], filter: DeliveryFilter) {
	const sorted = { passed: [] as IDataObject[], unknown: 0, notChosen: 0 };
	for (const event of events) {
		if (eventOf(event) === undefined) {
			if (filter.changeKinds.length > 0) sorted.unknown++;
			else sorted.passed.push({ kind: 'unknown', ...event });
		} else if (wanted(event, filter)) sorted.passed.push(event);
		else sorted.notChosen++;
	}
	return sorted;
}
