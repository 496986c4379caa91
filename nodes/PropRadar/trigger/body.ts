import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../shared/answers';
import { DELIVERY_TRIGGER_TYPES } from '../shared/vocabulary';
import type { TriggerEvent } from './wiring';

// The delivery body is inferred (docs/api.md), so every shape that can hold events is read.
export type ParsedDelivery = { events: IDataObject[] } | { malformed: string };

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

// A body n8n could not parse as JSON arrives as text or bytes.
export function parseDelivery(body: unknown): ParsedDelivery {
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

/** Spelling variants such as "New Matches" or "status_change" are known too. */
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

/** The event's kind by its type, under any key that names one; undefined when it cannot be told. */
export function eventOf(event: IDataObject): TriggerEvent | undefined {
	if (event.TriggerType !== undefined) return eventOfTriggerType(event.TriggerType);
	const key = Object.keys(event).find((candidate) => TYPE_KEYS.test(candidate));
	return key === undefined ? undefined : eventOfTriggerType(event[key]);
}
