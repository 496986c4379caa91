import { idsFrom } from '../shared/parameters';
import { TRIGGER_EVENTS } from '../shared/vocabulary';
import { writableAutomation, type AutomationRecord } from '../transport';

// Pure, so that `create` and `delete` agree on one model (docs/trigger.md).

export type TriggerEvent = keyof typeof TRIGGER_EVENTS;

const TRIGGER_ORDER: readonly string[] = Object.values(TRIGGER_EVENTS);
const EVENTS = Object.keys(TRIGGER_EVENTS) as TriggerEvent[];

// The automation before any PropRadar Trigger was wired to it, exactly as the service wrote it.
export interface Baseline {
	isEnabled: number;
	triggers: string;
	webhookIds: string;
}

// Names written by earlier versions also carry the baseline's webhook IDs.
export interface TriggerWebhookName {
	listId: number;
	events: TriggerEvent[];
	baseline: Omit<Baseline, 'webhookIds'> & { webhookIds?: string };
}

const EVENT_LETTERS: Record<TriggerEvent, string> = { newMatches: 'N', statusChanges: 'S' };
const LETTERS = '[NS](?:\\s*\\+\\s*[NS])*';
// Case and spacing are not relied on: a service may normalise names.
const NAME_PATTERN = new RegExp(
	`^n8n\\s*PropRadar\\s*Trigger\\s*(\\d+)\\s*:\\s*(${LETTERS})\\s*,\\s*was\\s*(on|off)\\s*(-|${LETTERS})\\s*$`,
	'i',
);
// Earlier versions' names, over 50 characters: still read, so that their registrations go cleanly.
const LONG_NAME_PATTERN =
	/^n8n PropRadar Trigger: list (\d+), ([A-Za-z +]+) \[before: (on|off) \| ([^|\]]*) \| hooks ([^\]]*)\]$/;
// The start of every trigger webhook's name survives a name cut to 50 characters.
const NAME_START = /^n8n\s*PropRadar\s*Trigger(?:\s*(\d+)\s*:|: list (\d+),)?/i;

// At most 50 characters: `n8n PropRadar Trigger 12: N+S, was off -` (events, then the baseline).
export function formatWebhookName({ listId, events, baseline }: TriggerWebhookName): string {
	const triggers = letters(eventsOfTriggers(baseline.triggers));
	return `n8n PropRadar Trigger ${listId}: ${letters(events)}, was ${baseline.isEnabled === 1 ? 'on' : 'off'} ${triggers === '' ? '-' : triggers}`;
}

function letters(events: TriggerEvent[]): string {
	return sortEvents(events)
		.map((event) => EVENT_LETTERS[event])
		.join('+');
}

function eventsOfLetters(text: string): TriggerEvent[] {
	const wanted = new Set(text.toUpperCase().split(/\s*\+\s*/));
	return EVENTS.filter((event) => wanted.has(EVENT_LETTERS[event]));
}

function eventsOfTriggers(triggers: string): TriggerEvent[] {
	const set = triggerSet(triggers);
	return EVENTS.filter((event) => set.has(TRIGGER_EVENTS[event]));
}

export function parseWebhookName(name: unknown): TriggerWebhookName | undefined {
	if (typeof name !== 'string') return undefined;
	const match = NAME_PATTERN.exec(name);
	if (match) {
		const triggers = match[4] === '-' ? [] : eventsOfLetters(match[4]);
		return {
			listId: Number(match[1]),
			events: eventsOfLetters(match[2]),
			baseline: {
				isEnabled: match[3].toLowerCase() === 'on' ? 1 : 0,
				triggers: formatTriggers(new Set(triggers.map((event) => TRIGGER_EVENTS[event]))),
			},
		};
	}
	const long = LONG_NAME_PATTERN.exec(name);
	if (!long) return undefined;
	const events = long[2].split(' + ').map((label) => eventsOfTriggers(label)[0]);
	if (events.some((event) => event === undefined)) return undefined;
	return {
		listId: Number(long[1]),
		events: events as TriggerEvent[],
		baseline: {
			isEnabled: long[3] === 'on' ? 1 : 0,
			triggers: long[4] === 'none' ? '' : long[4],
			webhookIds: long[5] === '-' ? '' : long[5],
		},
	};
}

export function isTriggerWebhookName(name: unknown): boolean {
	return typeof name === 'string' && NAME_START.test(name);
}

export function listIdInName(name: unknown): number | undefined {
	const match = typeof name === 'string' ? NAME_START.exec(name) : null;
	const digits = match?.[1] ?? match?.[2];
	return digits === undefined ? undefined : Number(digits);
}

export function sortEvents(events: TriggerEvent[]): TriggerEvent[] {
	return EVENTS.filter((event) => events.includes(event));
}

export function triggerSet(triggers: unknown): Set<string> {
	return new Set(idsFrom(String(triggers ?? '')));
}

export function formatTriggers(set: Set<string>): string {
	const known = TRIGGER_ORDER.filter((name) => set.has(name));
	const other = [...set].filter((name) => !TRIGGER_ORDER.includes(name));
	return [...known, ...other].join(',');
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
	return a.size === b.size && [...a].every((value) => b.has(value));
}

export function addWebhookId(value: unknown, webhookId: number): string {
	const text = String(value ?? '');
	return text.trim() === '' ? String(webhookId) : `${text},${webhookId}`;
}

// Keeps every other part exactly as written, so that the baseline can come back exactly.
export function removeWebhookId(value: unknown, webhookId: number): string {
	return String(value ?? '')
		.split(',')
		.filter((part) => part.trim() !== String(webhookId))
		.join(',');
}

export function baselineOf(automation: AutomationRecord): Baseline {
	return {
		isEnabled: Number(automation.isEnabled) === 1 ? 1 : 0,
		triggers: String(automation.Triggers ?? ''),
		webhookIds: String(automation.ExportToWebhookIDs ?? ''),
	};
}

export function chargingActions(automation: AutomationRecord): string[] {
	const actions: string[] = [];
	if (Number(automation.PurchasePhone) === 1) actions.push('buy phone numbers (PurchasePhone)');
	if (Number(automation.PurchaseEmail) === 1) actions.push('buy e-mail addresses (PurchaseEmail)');
	if (String(automation.DirectMailOrderID ?? '').trim() !== '')
		actions.push(`add properties to direct-mail order ${String(automation.DirectMailOrderID)}`);
	if (String(automation.EmailMarketingOrderID ?? '').trim() !== '')
		actions.push(
			`add properties to e-mail marketing order ${String(automation.EmailMarketingOrderID)}`,
		);
	return actions;
}

export function wiringAddsFiring(
	automation: Pick<AutomationRecord, 'isEnabled' | 'Triggers'>,
	events: TriggerEvent[],
): boolean {
	if (Number(automation.isEnabled) !== 1) return true;
	const triggers = triggerSet(automation.Triggers);
	return events.some((event) => !triggers.has(TRIGGER_EVENTS[event]));
}

export interface TriggerHook {
	webhookId: number;
	events: TriggerEvent[];
}

// `existingIds`: every webhook of the account; a wired id not among them nor in the baseline is dropped.
interface SettleInput {
	automation: AutomationRecord;
	baseline: Baseline;
	staying: TriggerHook[];
	leaving: TriggerHook[];
	existingIds: Set<number>;
}

// Undefined when nothing is to write. From the service's state only, so that several processes converge.
export function settleAutomation({
	automation,
	baseline,
	staying,
	leaving,
	existingIds,
}: SettleInput): Omit<AutomationRecord, 'Name'> | undefined {
	const current = baselineOf(automation);
	const baselineIds = new Set(idsFrom(baseline.webhookIds));
	const leavingIds = new Set(leaving.map((hook) => String(hook.webhookId)));
	const currentIds = idsFrom(current.webhookIds);

	let exportIds = current.webhookIds;
	let danglingRemoved = false;
	for (const id of currentIds) {
		const dangling =
			/^\d+$/.test(id) &&
			!existingIds.has(Number(id)) &&
			!baselineIds.has(id) &&
			!leavingIds.has(id);
		if (leavingIds.has(id) || dangling) exportIds = removeWebhookId(exportIds, Number(id));
		danglingRemoved ||= dangling;
	}
	for (const hook of staying) {
		if (!idsFrom(exportIds).includes(String(hook.webhookId)))
			exportIds = addWebhookId(exportIds, hook.webhookId);
	}

	// What the triggers are when nobody touched them since the trigger webhooks were wired.
	const wiredBefore = [
		...staying.filter((hook) => currentIds.includes(String(hook.webhookId))),
		...leaving,
	];
	const untouched = triggerSet(baseline.triggers);
	for (const hook of wiredBefore)
		for (const event of hook.events) untouched.add(TRIGGER_EVENTS[event]);
	// With a dangling id (events unknown), extra trigger events are taken as the triggers', not a user's.
	const currentTriggers = triggerSet(current.triggers);
	const triggersUntouched =
		sameSet(currentTriggers, untouched) ||
		(danglingRemoved &&
			[...untouched].every((name) => currentTriggers.has(name)) &&
			[...currentTriggers].every((name) => untouched.has(name) || TRIGGER_ORDER.includes(name)));

	let isEnabled = current.isEnabled;
	let triggers = current.triggers;
	if (staying.length > 0) {
		isEnabled = 1;
		const wanted = triggersUntouched ? triggerSet(baseline.triggers) : triggerSet(current.triggers);
		for (const hook of staying) for (const event of hook.events) wanted.add(TRIGGER_EVENTS[event]);
		if (!sameSet(wanted, triggerSet(current.triggers))) triggers = formatTriggers(wanted);
	} else if (wiredBefore.length > 0 && sameSet(new Set(idsFrom(exportIds)), baselineIds)) {
		// The last trigger webhook left, and no other webhook was wired since: back to the baseline.
		if (current.isEnabled === 1) isEnabled = baseline.isEnabled;
		if (triggersUntouched) triggers = baseline.triggers;
	}
	if (
		isEnabled === current.isEnabled &&
		triggers === current.triggers &&
		exportIds === current.webhookIds
	)
		return undefined;
	return {
		...writableAutomation(automation),
		isEnabled,
		Triggers: triggers,
		ExportToWebhookIDs: exportIds,
	};
}
