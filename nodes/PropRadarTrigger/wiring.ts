import { idsFrom } from '../PropRadar/shared/parameters';
import { writableAutomation, type AutomationRecord } from '../PropRadar/transport';
import { TRIGGER_EVENTS } from '../PropRadar/shared/vocabulary';

/**
 * How a trigger wires itself into a list's automation, as pure functions over the automation's
 * fields, so that registration (`create`) and clean-up (`delete`) agree on one model:
 *
 * - the **baseline** is the automation as it was before any PropRadar Trigger was wired to it
 *   (`isEnabled`, `Triggers`, `ExportToWebhookIDs`, as the service wrote them);
 * - while trigger webhooks are wired, the automation is enabled and its triggers are the
 *   baseline's plus the events of every wired trigger webhook;
 * - when the last trigger webhook leaves and no other webhook was wired since, the baseline comes
 *   back exactly. A field somebody changed in the meantime is left as they set it.
 *
 * Each trigger webhook carries the baseline and its events in its `WebhookName`, so that a second
 * workflow on the same list inherits the first one's baseline and either may be removed first.
 */

/** An event a trigger listens to; `TRIGGER_EVENTS` gives the automation's name for each, in the order the service writes them. */
export type TriggerEvent = keyof typeof TRIGGER_EVENTS;

const TRIGGER_ORDER: readonly string[] = Object.values(TRIGGER_EVENTS);

export interface Baseline {
	isEnabled: number;
	/** `Triggers` exactly as it was. */
	triggers: string;
	/** `ExportToWebhookIDs` exactly as it was. */
	webhookIds: string;
}

/** What a trigger webhook's name says about it. */
export interface TriggerWebhookName {
	listId: number;
	events: TriggerEvent[];
	baseline: Baseline;
}

const NAME_PREFIX = 'n8n PropRadar Trigger';
const NAME_PATTERN = /^n8n PropRadar Trigger: list (\d+), ([A-Za-z +]+) \[before: (on|off) \| ([^|\]]*) \| hooks ([^\]]*)\]$/;

/** A recognisable, readable `WebhookName`, e.g. `n8n PropRadar Trigger: list 12, New Matches [before: off | none | hooks -]`. */
export function formatWebhookName({ listId, events, baseline }: TriggerWebhookName): string {
	const eventNames = sortEvents(events).map((event) => TRIGGER_EVENTS[event]).join(' + ');
	const triggers = baseline.triggers === '' ? 'none' : baseline.triggers;
	const hooks = baseline.webhookIds === '' ? '-' : baseline.webhookIds;
	return `${NAME_PREFIX}: list ${listId}, ${eventNames} [before: ${baseline.isEnabled === 1 ? 'on' : 'off'} | ${triggers} | hooks ${hooks}]`;
}

/** The parts of a name `formatWebhookName` wrote; undefined for any other webhook. */
export function parseWebhookName(name: unknown): TriggerWebhookName | undefined {
	const match = typeof name === 'string' ? NAME_PATTERN.exec(name) : null;
	if (!match) return undefined;
	const events = match[2].split(' + ').map((label) => eventOfTrigger(label.trim()));
	if (events.some((event) => event === undefined)) return undefined;
	return {
		listId: Number(match[1]),
		events: events as TriggerEvent[],
		baseline: {
			isEnabled: match[3] === 'on' ? 1 : 0,
			triggers: match[4] === 'none' ? '' : match[4],
			webhookIds: match[5] === '-' ? '' : match[5],
		},
	};
}

function eventOfTrigger(label: string): TriggerEvent | undefined {
	return (Object.keys(TRIGGER_EVENTS) as TriggerEvent[]).find((event) => TRIGGER_EVENTS[event] === label);
}

export function sortEvents(events: TriggerEvent[]): TriggerEvent[] {
	return (Object.keys(TRIGGER_EVENTS) as TriggerEvent[]).filter((event) => events.includes(event));
}

/** The trigger names in a `Triggers` value (tolerant of spaces). */
export function triggerSet(triggers: unknown): Set<string> {
	return new Set(
		String(triggers ?? '')
			.split(',')
			.map((part) => part.trim())
			.filter(Boolean),
	);
}

/** A `Triggers` value with the service's order. */
export function formatTriggers(set: Set<string>): string {
	const known = TRIGGER_ORDER.filter((name) => set.has(name));
	const other = [...set].filter((name) => !TRIGGER_ORDER.includes(name));
	return [...known, ...other].join(',');
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
	return a.size === b.size && [...a].every((value) => b.has(value));
}

/** Adds an id, keeping the value as written. */
export function addWebhookId(value: unknown, webhookId: number): string {
	const text = String(value ?? '');
	return text.trim() === '' ? String(webhookId) : `${text},${webhookId}`;
}

/** Removes an id, keeping every other part exactly as written. */
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

/** Actions of the automation that cost money each time it fires, by their labels. */
export function chargingActions(automation: AutomationRecord): string[] {
	const actions: string[] = [];
	if (Number(automation.PurchasePhone) === 1) actions.push('buy phone numbers (PurchasePhone)');
	if (Number(automation.PurchaseEmail) === 1) actions.push('buy e-mail addresses (PurchaseEmail)');
	if (String(automation.DirectMailOrderID ?? '').trim() !== '') actions.push(`add properties to direct-mail order ${String(automation.DirectMailOrderID)}`);
	if (String(automation.EmailMarketingOrderID ?? '').trim() !== '') actions.push(`add properties to e-mail marketing order ${String(automation.EmailMarketingOrderID)}`);
	return actions;
}

/** Whether wiring these events would make the automation fire where it did not before. */
export function wiringAddsFiring(automation: Pick<AutomationRecord, 'isEnabled' | 'Triggers'>, events: TriggerEvent[]): boolean {
	if (Number(automation.isEnabled) !== 1) return true;
	const triggers = triggerSet(automation.Triggers);
	return events.some((event) => !triggers.has(TRIGGER_EVENTS[event]));
}

/** A trigger webhook of a list: its id and what its name says. */
export interface TriggerHook {
	webhookId: number;
	events: TriggerEvent[];
}

export interface SettleInput {
	automation: AutomationRecord;
	baseline: Baseline;
	/** The trigger webhooks of the list that exist and are to stay (or become) wired. */
	staying: TriggerHook[];
	/** Trigger webhooks to take out (deactivated, left over), whether they still exist or not. */
	leaving: TriggerHook[];
	/** The ids of every webhook of the account: an id wired to the automation that is not among them, nor in the baseline, is dropped. */
	existingIds: Set<number>;
}

/**
 * The automation as the list's trigger webhooks say it should be, or undefined when it already is.
 * Every process computes it from the service's state (the automation and the webhooks, whose names
 * carry each trigger's events and the baseline), never from what it remembers, so that writes by
 * several n8n processes converge: whoever writes last re-reads and repairs what it overwrote.
 *
 * - Staying trigger webhooks are wired: the id appended, the automation enabled, their events added.
 * - Leaving ones and dangling ids (webhooks gone that the baseline did not have) are taken out.
 * - Triggers still as the triggers left them follow the staying webhooks; with none left and no
 *   other webhook wired since, the baseline comes back exactly. A field somebody changed in the
 *   meantime is left as they set it (only the events of staying webhooks are added to it).
 */
export function settleAutomation({ automation, baseline, staying, leaving, existingIds }: SettleInput): Omit<AutomationRecord, 'Name'> | undefined {
	const current = baselineOf(automation);
	const baselineIds = new Set(idsFrom(baseline.webhookIds));
	const leavingIds = new Set(leaving.map((hook) => String(hook.webhookId)));
	const currentIds = idsFrom(current.webhookIds);

	let exportIds = current.webhookIds;
	let danglingRemoved = false;
	for (const id of currentIds) {
		const dangling = /^\d+$/.test(id) && !existingIds.has(Number(id)) && !baselineIds.has(id) && !leavingIds.has(id);
		if (leavingIds.has(id) || dangling) exportIds = removeWebhookId(exportIds, Number(id));
		danglingRemoved ||= dangling;
	}
	for (const hook of staying) {
		if (!idsFrom(exportIds).includes(String(hook.webhookId))) exportIds = addWebhookId(exportIds, hook.webhookId);
	}

	// What the triggers are when nobody touched them since the trigger webhooks were wired.
	const wiredBefore = [...staying.filter((hook) => currentIds.includes(String(hook.webhookId))), ...leaving];
	const untouched = triggerSet(baseline.triggers);
	for (const hook of wiredBefore) for (const event of hook.events) untouched.add(TRIGGER_EVENTS[event]);
	// A dangling id was a trigger webhook (or another) deleted meanwhile, whose events are unknown:
	// trigger events beyond the known ones are then taken as the triggers', not as somebody's change.
	const currentTriggers = triggerSet(current.triggers);
	const triggersUntouched =
		sameSet(currentTriggers, untouched) ||
		(danglingRemoved && [...untouched].every((name) => currentTriggers.has(name)) && [...currentTriggers].every((name) => untouched.has(name) || TRIGGER_ORDER.includes(name)));

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
	if (isEnabled === current.isEnabled && triggers === current.triggers && exportIds === current.webhookIds) return undefined;
	return {
		...writableAutomation(automation),
		isEnabled,
		Triggers: triggers,
		ExportToWebhookIDs: exportIds,
	};
}
