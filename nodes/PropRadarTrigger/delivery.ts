import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { DELIVERY_TRIGGER_TYPES } from '../PropRadar/shared/vocabulary';
import { sortEvents, type TriggerEvent } from './wiring';

/**
 * What the trigger does with one delivery: the secret check, the body's shape, the event and
 * change-kind filters (pure functions), and the redelivery window (the one piece of state, kept
 * in this process's memory).
 */

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * The secret a registration's deliveries carry: an HMAC-SHA256, keyed with the credential's access
 * token, of the registration's salt (random, kept in the static data, which n8n stores and exports
 * unencrypted). Derived whenever it is needed, so that nothing kept at rest can sign a delivery;
 * another token gives another secret. Empty, matching nothing, without a token or a salt.
 */
export function deliverySecret(accessToken: string, salt: unknown): string {
	if (accessToken === '' || typeof salt !== 'string' || salt === '') return '';
	return createHmac('sha256', accessToken).update(`n8n-nodes-propradar trigger delivery:${salt}`, 'utf8').digest('hex');
}

/** Whether two secrets are the same, compared in constant time; an empty one matches nothing. */
export function sameSecret(a: string, b: string): boolean {
	return a !== '' && b !== '' && timingSafeEqual(digest(a), digest(b));
}

/**
 * Whether an `Authorization` header carries `Bearer <secret>`. Both sides are hashed to the same
 * length first, so the comparison takes the same time whatever is presented, its length included.
 */
export function bearerMatches(header: unknown, secret: string): boolean {
	if (secret === '') return false;
	const presented = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '' : '';
	return timingSafeEqual(digest(presented), digest(secret)) && presented !== '';
}

export type ParsedDelivery = { events: IDataObject[] } | { malformed: string };

/**
 * The events of a delivery body: one object or an array of objects, each with a `TriggerType`.
 * A body n8n could not parse as JSON arrives as text or bytes, and is parsed here once more.
 */
export function parseDelivery(body: unknown): ParsedDelivery {
	let value = body;
	if (typeof value === 'string' || value instanceof Uint8Array) {
		try {
			value = JSON.parse(typeof value === 'string' ? value : new TextDecoder().decode(value)) as unknown;
		} catch {
			return { malformed: 'The body is not JSON' };
		}
	}
	const events = Array.isArray(value) ? value : [value];
	if (value === null || value === undefined) return { malformed: 'The body is empty' };
	for (const [index, event] of events.entries()) {
		const where = Array.isArray(value) ? `Element ${index}` : 'The body';
		if (typeof event !== 'object' || event === null || Array.isArray(event)) {
			return { malformed: `${where} is not a JSON object` };
		}
		const triggerType = (event as IDataObject).TriggerType;
		if (typeof triggerType !== 'string' || triggerType.trim() === '') {
			return { malformed: `${where} has no TriggerType` };
		}
	}
	return { events: events as IDataObject[] };
}

/** Whether a change's old value says there was none: a status that was `None` (or empty) is new. */
const wasNone = (from: string | undefined) => from !== undefined && /^(none|null)?$/i.test(from.trim());

/**
 * Kinds of status change a user can keep (the lists document, "Events"), and how a change is
 * recognised: by its field label, and for a new listing or foreclosure also by a status that
 * changes from None (`Listing Status:None:Active`, `Foreclosure Status:None:Preforeclosure`).
 */
export const CHANGE_KINDS = {
	newTransfer: { name: 'New Transfer (Sale)', matches: (label: string) => /transfer|sale|deed/.test(label) },
	newLoan: { name: 'New Loan', matches: (label: string) => /loan|mortgage/.test(label) },
	newListing: { name: 'New Listing', matches: (label: string, from?: string) => /listing|listed/.test(label) && (!/status|price/.test(label) || (/status/.test(label) && wasNone(from))) },
	listingStatus: { name: 'Listing Status', matches: (label: string) => /listing|listed/.test(label) && /status/.test(label) },
	listingPrice: { name: 'Listing Price', matches: (label: string) => /listing|list price/.test(label) && /price/.test(label) },
	newForeclosure: { name: 'New Foreclosure', matches: (label: string, from?: string) => /foreclosure|default|auction/.test(label) && (!/status|stage/.test(label) || (/foreclosure/.test(label) && wasNone(from))) },
	foreclosureStatus: { name: 'Foreclosure Status', matches: (label: string) => /foreclosure/.test(label) && /status|stage/.test(label) },
} as const satisfies Record<string, { name: string; matches: (label: string, from?: string) => boolean }>;

export type ChangeKind = keyof typeof CHANGE_KINDS;

/** The field labels of a change event's `Change1`..`Change3` (`"<Field label>:<old>:<new>"`). */
export function changeLabels(event: IDataObject): string[] {
	return Object.keys(event)
		.filter((key) => /^Change\d+$/.test(key))
		.map((key) => String(event[key] ?? '').split(':')[0].trim().toLowerCase())
		.filter(Boolean);
}

/** The field label (lower case) and the old value of each of a change event's `Change1`..`Change3`. */
function changesOf(event: IDataObject): Array<{ label: string; from: string | undefined }> {
	return Object.keys(event)
		.filter((key) => /^Change\d+$/.test(key))
		.map((key) => String(event[key] ?? '').split(':'))
		.map(([label, from]) => ({ label: label.trim().toLowerCase(), from }))
		.filter((change) => change.label !== '');
}

export interface DeliveryFilter {
	events: TriggerEvent[];
	/** Empty: every kind of change. */
	changeKinds: ChangeKind[];
}

/**
 * A list parameter as n8n hands it: a list from the editor, or, from an expression, possibly a
 * comma-separated string. Undefined when it is neither.
 */
function listOf(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return [];
	if (Array.isArray(value)) return value.map((entry) => String(entry).trim());
	if (typeof value === 'string') return value.split(',').map((entry) => entry.trim()).filter(Boolean);
	return undefined;
}

export interface DeliverySettings {
	filter: DeliveryFilter;
	/** The redelivery window; 0 keeps every delivery. */
	windowMs: number;
	splitIntoItems: boolean;
}

/**
 * The trigger's delivery settings from its Events and Options as n8n hands them, or what is wrong
 * with them, naming the field and what it takes. A Change Kind is looked up as the trigger's own
 * name: one that is no kind of change (a label such as "Listing Status", an inherited name such as
 * "constructor") is refused, since passing over it would widen the filter, to every change when
 * no kind is left.
 */
export function readDeliverySettings(events: unknown, options: IDataObject): DeliverySettings | { problem: string } {
	const chosen = listOf(events);
	const known = sortEvents((chosen ?? []).filter((event): event is TriggerEvent => event === 'newMatches' || event === 'statusChanges'));
	if (!chosen || known.length === 0 || known.length !== chosen.length) {
		return { problem: `Events: choose New Matches, Status Changes or both (got ${chosen ? `"${chosen.join(', ')}"` : JSON.stringify(events)})` };
	}
	const kinds = listOf(options.changeKinds);
	if (!kinds) {
		return { problem: `Change Kinds: a list of ${Object.values(CHANGE_KINDS).map((kind) => kind.name).join(', ')}; got ${JSON.stringify(options.changeKinds)}` };
	}
	const notAKind = kinds.find((kind) => !Object.hasOwn(CHANGE_KINDS, kind));
	if (notAKind !== undefined) {
		return { problem: `Change Kinds: "${notAKind}" is no kind of change; use any of ${Object.keys(CHANGE_KINDS).map((kind) => `"${kind}"`).join(', ')}` };
	}
	const window = options.redeliveryWindowSeconds ?? 600;
	const seconds = typeof window === 'number' ? window : typeof window === 'string' && window.trim() !== '' ? Number(window) : NaN;
	if (!Number.isFinite(seconds) || seconds < 0) {
		return { problem: `Redelivery Window (Seconds): a number of seconds from 0 (0 keeps every delivery); got ${JSON.stringify(window)}` };
	}
	const split = options.splitIntoItems ?? true;
	if (typeof split !== 'boolean') return { problem: `Split Into Items: on or off (true or false); got ${JSON.stringify(split)}` };
	return {
		filter: { events: known, changeKinds: kinds as ChangeKind[] },
		windowMs: seconds * 1000,
		splitIntoItems: split,
	};
}

/**
 * The event a delivery's `TriggerType` stands for: "New Match" for New Matches, "Change" for
 * Status Changes (`DELIVERY_TRIGGER_TYPES`; spelling variants such as "New Matches" or "Status
 * Change" are accepted).
 */
export function eventOfTriggerType(triggerType: unknown): TriggerEvent | undefined {
	if (triggerType === DELIVERY_TRIGGER_TYPES.newMatch) return 'newMatches';
	if (triggerType === DELIVERY_TRIGGER_TYPES.change) return 'statusChanges';
	const word = String(triggerType ?? '').toLowerCase().replace(/[^a-z]/g, '');
	if (/^newmatch(es)?$/.test(word)) return 'newMatches';
	if (/^(status)?changes?$/.test(word)) return 'statusChanges';
	return undefined;
}

/** Whether the workflow wants this event: its `TriggerType` is a chosen event, and a change is of a chosen kind. */
export function wanted(event: IDataObject, filter: DeliveryFilter): boolean {
	const matched = eventOfTriggerType(event.TriggerType);
	if (!matched || !filter.events.includes(matched)) return false;
	if (matched !== 'statusChanges' || filter.changeKinds.length === 0) return true;
	const changes = changesOf(event);
	return filter.changeKinds.some((kind) => changes.some((change) => CHANGE_KINDS[kind].matches(change.label, change.from)));
}

const MAX_REMEMBERED = 10_000;

/**
 * How long the window waits for n8n's answer to the delivery that admitted an event before it
 * takes the execution as started. n8n ends its answer once the execution is created or has
 * failed to be (late while it waits for its database or for a production slot); this bounds the
 * wait should it never end.
 */
export const ANSWER_WAIT_MS = 120_000;

/** What the window remembers of an event: a digest of its JSON. */
const hashOf = (event: IDataObject) => digest(JSON.stringify(event)).toString('base64');

interface Remembered {
	/** Until when a redelivery of the event is dropped. */
	expires: number;
	/** Until when n8n's answer to the delivery that admitted it is awaited; 0 once n8n answered that it started the execution. */
	answerBy: number;
}

/**
 * What the window makes of a delivery: the events to start an execution for (none: all were
 * delivered before), or `unsettled` when one of them came in a delivery that n8n has not answered
 * yet, so that whether its execution started is not known: nothing is admitted, and the service
 * is to deliver again later.
 */
export type Admission = { fresh: IDataObject[] } | { unsettled: true };

/**
 * Events seen recently, per trigger node: a redelivery of the same event (same JSON) within the
 * window is dropped once n8n has started the execution of the first delivery, asked for later
 * until n8n has answered it, and admitted again when n8n answered that it could not start it.
 * Kept in this process's memory, bounded, oldest forgotten first.
 */
export class RedeliveryWindow {
	private readonly seen = new Map<string, Map<string, Remembered>>();

	/** The events not seen within `windowMs`, remembering them as awaiting n8n's answer; `windowMs` 0 keeps everything. */
	admit(triggerKey: string, events: IDataObject[], windowMs: number, now: number): Admission {
		if (windowMs <= 0) return { fresh: events };
		const seen = this.seen.get(triggerKey) ?? new Map<string, Remembered>();
		this.seen.set(triggerKey, seen);
		for (const [hash, remembered] of seen) {
			if (remembered.expires > now) break;
			seen.delete(hash);
		}
		const hashes = events.map(hashOf);
		for (const hash of hashes) {
			const remembered = seen.get(hash);
			if (remembered && remembered.expires > now && remembered.answerBy > now) return { unsettled: true };
		}
		const fresh: IDataObject[] = [];
		hashes.forEach((hash, index) => {
			const remembered = seen.get(hash);
			if (remembered && remembered.expires > now) return;
			seen.delete(hash);
			seen.set(hash, { expires: now + windowMs, answerBy: now + ANSWER_WAIT_MS });
			fresh.push(events[index]);
		});
		while (seen.size > MAX_REMEMBERED) seen.delete(seen.keys().next().value as string);
		return { fresh };
	}

	/**
	 * n8n's answer to the delivery that admitted `events`: when it started their execution, a
	 * redelivery of them is dropped from now on; when it did not, they are forgotten, so that a
	 * redelivery of them is admitted again.
	 */
	settle(triggerKey: string, events: IDataObject[], started: boolean): void {
		const seen = this.seen.get(triggerKey);
		if (!seen) return;
		for (const event of events) {
			const hash = hashOf(event);
			const remembered = seen.get(hash);
			if (!remembered) continue;
			if (started) remembered.answerBy = 0;
			else seen.delete(hash);
		}
	}

	forget(triggerKey: string): void {
		this.seen.delete(triggerKey);
	}
}

/** The one window of this process, shared by every PropRadar Trigger. */
export const redeliveries = new RedeliveryWindow();

/** Which remembered events belong to which registration. */
export function redeliveryKey(workflowId: string | undefined, nodeId: string, webhookId: number): string {
	return `${workflowId ?? ''}/${nodeId}/${webhookId}`;
}
