import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { DELIVERY_TRIGGER_TYPES } from '../shared/vocabulary';
import { sortEvents, type TriggerEvent } from './wiring';

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

// Derived when needed, so that nothing in the static data (stored and exported unencrypted) can sign a
// delivery (docs/trigger.md, "Secrets at rest"). Empty, matching nothing, without a token or a salt.
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

export type ParsedDelivery = { events: IDataObject[] } | { malformed: string };

// A body n8n could not parse as JSON arrives as text or bytes.
export function parseDelivery(body: unknown): ParsedDelivery {
	let value = body;
	if (typeof value === 'string' || value instanceof Uint8Array) {
		try {
			value = JSON.parse(
				typeof value === 'string' ? value : new TextDecoder().decode(value),
			) as unknown;
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
const wasNone = (from: string | undefined) =>
	from !== undefined && /^(none|null)?$/i.test(from.trim());

// The lists document's "Events". A change is known by its field label, and a new listing or foreclosure
// also by a status changed from None (`Listing Status:None:Active`).
export const CHANGE_KINDS = {
	newTransfer: {
		name: 'New Transfer (Sale)',
		matches: (label: string) => /transfer|sale|deed/.test(label),
	},
	newLoan: { name: 'New Loan', matches: (label: string) => /loan|mortgage/.test(label) },
	newListing: {
		name: 'New Listing',
		matches: (label: string, from?: string) =>
			/listing|listed/.test(label) &&
			(!/status|price/.test(label) || (/status/.test(label) && wasNone(from))),
	},
	listingStatus: {
		name: 'Listing Status',
		matches: (label: string) => /listing|listed/.test(label) && /status/.test(label),
	},
	listingPrice: {
		name: 'Listing Price',
		matches: (label: string) => /listing|list price/.test(label) && /price/.test(label),
	},
	newForeclosure: {
		name: 'New Foreclosure',
		matches: (label: string, from?: string) =>
			/foreclosure|default|auction/.test(label) &&
			(!/status|stage/.test(label) || (/foreclosure/.test(label) && wasNone(from))),
	},
	foreclosureStatus: {
		name: 'Foreclosure Status',
		matches: (label: string) => /foreclosure/.test(label) && /status|stage/.test(label),
	},
} as const satisfies Record<
	string,
	{ name: string; matches: (label: string, from?: string) => boolean }
>;

export type ChangeKind = keyof typeof CHANGE_KINDS;

/** The field labels of a change event's `Change1`..`Change3` (`"<Field label>:<old>:<new>"`). */
export function changeLabels(event: IDataObject): string[] {
	return Object.keys(event)
		.filter((key) => /^Change\d+$/.test(key))
		.map((key) =>
			String(event[key] ?? '')
				.split(':')[0]
				.trim()
				.toLowerCase(),
		)
		.filter(Boolean);
}

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

export interface DeliverySettings {
	filter: DeliveryFilter;
	windowMs: number;
	splitIntoItems: boolean;
}

// A Change Kind that is none (a label such as "Listing Status", "constructor") is refused: passing over
// it would widen the filter, to every change when no kind is left.
export function readDeliverySettings(
	events: unknown,
	options: IDataObject,
): DeliverySettings | { problem: string } {
	const chosen = listOf(events);
	const known = sortEvents(
		(chosen ?? []).filter(
			(event): event is TriggerEvent => event === 'newMatches' || event === 'statusChanges',
		),
	);
	if (!chosen || known.length === 0 || known.length !== chosen.length) {
		return {
			problem:
				`Events: choose New Matches, Status Changes or both (got ` +
				`${chosen ? `"${chosen.join(', ')}"` : JSON.stringify(events)})`,
		};
	}
	const kinds = listOf(options.changeKinds);
	if (!kinds) {
		return {
			problem: `Change Kinds: a list of ${Object.values(CHANGE_KINDS)
				.map((kind) => kind.name)
				.join(', ')}; got ${JSON.stringify(options.changeKinds)}`,
		};
	}
	const notAKind = kinds.find((kind) => !Object.hasOwn(CHANGE_KINDS, kind));
	if (notAKind !== undefined) {
		return {
			problem: `Change Kinds: "${notAKind}" is no kind of change; use any of ${Object.keys(
				CHANGE_KINDS,
			)
				.map((kind) => `"${kind}"`)
				.join(', ')}`,
		};
	}
	const window = options.redeliveryWindowSeconds ?? 600;
	const seconds =
		typeof window === 'number'
			? window
			: typeof window === 'string' && window.trim() !== ''
				? Number(window)
				: NaN;
	if (!Number.isFinite(seconds) || seconds < 0) {
		return {
			problem:
				`Redelivery Window (Seconds): a number of seconds from 0 (0 keeps every ` +
				`delivery); got ${JSON.stringify(window)}`,
		};
	}
	const split = options.splitIntoItems ?? true;
	if (typeof split !== 'boolean')
		return { problem: `Split Into Items: on or off (true or false); got ${JSON.stringify(split)}` };
	return {
		filter: { events: known, changeKinds: kinds as ChangeKind[] },
		windowMs: seconds * 1000,
		splitIntoItems: split,
	};
}

/** Spelling variants such as "New Matches" or "Status Change" are accepted too. */
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

export function wanted(event: IDataObject, filter: DeliveryFilter): boolean {
	const matched = eventOfTriggerType(event.TriggerType);
	if (!matched || !filter.events.includes(matched)) return false;
	if (matched !== 'statusChanges' || filter.changeKinds.length === 0) return true;
	const changes = changesOf(event);
	return filter.changeKinds.some((kind) =>
		changes.some((change) => CHANGE_KINDS[kind].matches(change.label, change.from)),
	);
}

const MAX_REMEMBERED = 10_000;

// n8n's answer comes once the execution is created or failed to be (late while it waits for its database
// or a production slot); past this the execution is taken as started.
export const ANSWER_WAIT_MS = 120_000;

const hashOf = (event: IDataObject) => digest(JSON.stringify(event)).toString('base64');

interface Remembered {
	expires: number;
	/** Until when n8n's answer to the delivery that admitted it is awaited; 0 once n8n answered that it started the execution. */
	answerBy: number;
}

/** `unsettled`: an event came in a delivery n8n has not answered yet, so whether its execution started is
 * not known; nothing is admitted, and the service is to deliver again later. */
export type Admission = { fresh: IDataObject[] } | { unsettled: true };

// A redelivery (same JSON) within the window is dropped once n8n started the first one's execution, asked
// for later until n8n answered, and admitted again when n8n could not start it. In this process's memory.
export class RedeliveryWindow {
	private readonly seen = new Map<string, Map<string, Remembered>>();

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
			if (remembered && remembered.expires > now && remembered.answerBy > now)
				return { unsettled: true };
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

	/** Not started: the events are forgotten, so that their redelivery is admitted again. */
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

export function redeliveryKey(
	workflowId: string | undefined,
	nodeId: string,
	webhookId: number,
): string {
	return `${workflowId ?? ''}/${nodeId}/${webhookId}`;
}
