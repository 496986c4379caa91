import fc from 'fast-check';

import type { AutomationRecord } from '../../nodes/PropRadar/transport';
import {
	addWebhookId,
	baselineOf,
	chargingActions,
	formatTriggers,
	formatWebhookName,
	isTriggerWebhookName,
	listIdInName,
	parseWebhookName,
	removeWebhookId,
	settleAutomation,
	triggerSet,
	wiringAddsFiring,
	type Baseline,
	type TriggerEvent,
} from '../../nodes/PropRadar/trigger/wiring';

/**
 * The trigger's wiring model (nodes/PropRadar/trigger/wiring.ts) on its own: the webhook name that
 * tells the list's other triggers a trigger's events and the automation's baseline, and the automation each state of the
 * list's trigger webhooks asks for. The engine tier runs the same code against the sandbox.
 */

/** A whole automation as the service answers it: off, no triggers, nothing wired, nothing that charges. */
function automation(fields: Partial<AutomationRecord> = {}): AutomationRecord {
	return {
		Name: 'Oregon foreclosures',
		isEnabled: 0,
		Triggers: '',
		DailyEmailMemberIDs: '',
		ImmediateEmailMemberIDs: 'M102',
		ExportToWebhookIDs: '',
		DirectMailOrderID: '',
		EmailMarketingOrderID: '',
		MobileNotificationMemberIDs: '',
		SetInterestLevel: 4,
		SetStatusLevel: null,
		AddToLists: '',
		RemoveFromLists: '',
		PurchasePhone: 0,
		PurchaseEmail: 0,
		...fields,
	} as AutomationRecord;
}

const OFF: Baseline = { isEnabled: 0, triggers: '', webhookIds: '' };

describe('the webhook name', () => {
	test("reads as the documented example and parses back (the baseline's webhook IDs are not in it)", () => {
		const name = formatWebhookName({ listId: 12, events: ['newMatches'], baseline: OFF });
		expect(name).toBe('n8n PropRadar Trigger 12: N, was off -');
		expect(parseWebhookName(name)).toEqual({
			listId: 12,
			events: ['newMatches'],
			baseline: { isEnabled: 0, triggers: '' },
		});
	});

	test("names the events in the service's order, whatever order they were chosen in", () => {
		const name = formatWebhookName({
			listId: 3,
			events: ['statusChanges', 'newMatches'],
			baseline: { isEnabled: 1, triggers: 'Status Changes', webhookIds: '7, 9' },
		});
		expect(name).toBe('n8n PropRadar Trigger 3: N+S, was on S');
	});

	test('any list up to 10 digits, events and baseline fit in 50 characters and survive the name, also in other case and spacing', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 9_999_999_999 }),
				fc.subarray<TriggerEvent>(['newMatches', 'statusChanges'], { minLength: 1 }),
				fc.constantFrom(0, 1),
				fc.subarray(['New Matches', 'Status Changes']),
				(listId, events, isEnabled, triggers) => {
					const baseline = { isEnabled, triggers: triggers.join(','), webhookIds: '4' };
					const name = formatWebhookName({ listId, events, baseline });
					expect(name.length).toBeLessThanOrEqual(50);
					const told = { listId, events, baseline: { isEnabled, triggers: triggers.join(',') } };
					expect(parseWebhookName(name)).toEqual(told);
					expect(parseWebhookName(name.toLowerCase().replace(/ /g, '  '))).toEqual(told);
				},
			),
		);
	});

	test('a name written by an earlier version, with the whole baseline in it, is still read', () => {
		expect(
			parseWebhookName(
				'n8n PropRadar Trigger: list 3, New Matches + Status Changes [before: on | Status Changes | hooks 7, 9]',
			),
		).toEqual({
			listId: 3,
			events: ['newMatches', 'statusChanges'],
			baseline: { isEnabled: 1, triggers: 'Status Changes', webhookIds: '7, 9' },
		});
	});

	test.each([
		["another integration's webhook", 'CRM export'],
		['an event the trigger does not know', 'n8n PropRadar Trigger 3: P, was on -'],
		['a name cut short', 'n8n PropRadar Trigger 3: N, was'],
		['an older name cut short', 'n8n PropRadar Trigger: list 3, New Matches [before: on | none'],
		['no name', undefined],
		['a number', 12],
	])("is not a trigger's: %s", (_what, name) => {
		expect(parseWebhookName(name)).toBeUndefined();
	});

	test.each([
		['n8n PropRadar Trigger 3: N, was', true, 3],
		['n8n PropRadar Trigger: list 3, New Matches [befor', true, 3],
		['N8N PROPRADAR TRIGGER 3', true, undefined],
		['n8n PropRadar Trigger', true, undefined],
		['CRM export', false, undefined],
	])('"%s" begins as a trigger\'s name: %s, list %s', (name, recognised, listId) => {
		expect(isTriggerWebhookName(name)).toBe(recognised);
		expect(listIdInName(name)).toBe(listId);
	});
});

describe("the automation's fields as written", () => {
	test("Triggers: read with spaces and empty parts, written in the service's order with unknown names after", () => {
		expect([...triggerSet(' Status Changes , ,New Matches')]).toEqual([
			'Status Changes',
			'New Matches',
		]);
		expect(triggerSet(undefined).size).toBe(0);
		expect(formatTriggers(new Set(['Price Drops', 'Status Changes', 'New Matches']))).toBe(
			'New Matches,Status Changes,Price Drops',
		);
		expect(formatTriggers(new Set())).toBe('');
	});

	test('ExportToWebhookIDs: an id is added and removed leaving every other part as it was written', () => {
		expect(addWebhookId('', 5)).toBe('5');
		expect(addWebhookId('  ', 5)).toBe('5');
		expect(addWebhookId(undefined, 5)).toBe('5');
		expect(addWebhookId('3, 4', 5)).toBe('3, 4,5');
		expect(removeWebhookId('12, 7, 5', 5)).toBe('12, 7');
		expect(removeWebhookId('5,50, 5 ,15', 5)).toBe('50,15');
		expect(removeWebhookId('12', 5)).toBe('12');
	});

	test("the baseline is the automation's on/off, Triggers and ExportToWebhookIDs exactly", () => {
		expect(
			baselineOf(automation({ isEnabled: 1, Triggers: 'New Matches', ExportToWebhookIDs: '3, 4' })),
		).toEqual({ isEnabled: 1, triggers: 'New Matches', webhookIds: '3, 4' });
		expect(baselineOf(automation({ isEnabled: '1' as unknown as number }))).toMatchObject({
			isEnabled: 1,
		});
		expect(
			baselineOf(automation({ isEnabled: 2, Triggers: undefined as unknown as string })),
		).toEqual({ isEnabled: 0, triggers: '', webhookIds: '' });
	});
});

describe('what costs money', () => {
	test('the actions that charge each time the automation fires, by their labels', () => {
		expect(chargingActions(automation())).toEqual([]);
		expect(chargingActions(automation({ DirectMailOrderID: '  ', PurchaseEmail: 0 }))).toEqual([]);
		expect(
			chargingActions(
				automation({
					PurchasePhone: 1,
					PurchaseEmail: 1,
					DirectMailOrderID: 'DM-7',
					EmailMarketingOrderID: 'EM-9',
				}),
			),
		).toEqual([
			'buy phone numbers (PurchasePhone)',
			'buy e-mail addresses (PurchaseEmail)',
			'add properties to direct-mail order DM-7',
			'add properties to e-mail marketing order EM-9',
		]);
	});

	test('wiring makes the automation fire where it did not: when it is off, or lacks one of the events', () => {
		expect(
			wiringAddsFiring({ isEnabled: 0, Triggers: 'New Matches,Status Changes' }, ['newMatches']),
		).toBe(true);
		expect(wiringAddsFiring({ isEnabled: 1, Triggers: 'New Matches' }, ['newMatches'])).toBe(false);
		expect(
			wiringAddsFiring({ isEnabled: 1, Triggers: ' New Matches , Status Changes' }, [
				'newMatches',
				'statusChanges',
			]),
		).toBe(false);
		expect(
			wiringAddsFiring({ isEnabled: 1, Triggers: 'New Matches' }, ['newMatches', 'statusChanges']),
		).toBe(true);
	});
});

describe('settling the automation', () => {
	test('a first trigger wires its webhook, turns the automation on with its events, and keeps every other field', () => {
		const settled = settleAutomation({
			automation: automation(),
			baseline: OFF,
			staying: [{ webhookId: 7, events: ['newMatches'] }],
			leaving: [],
			existingIds: new Set([7]),
		});
		expect(settled).toEqual({
			...automation({ isEnabled: 1, Triggers: 'New Matches', ExportToWebhookIDs: '7' }),
			Name: undefined,
		});
		expect(settled).not.toHaveProperty('Name');
	});

	test('an automation already as its trigger webhooks say needs no write', () => {
		const wired = automation({ isEnabled: 1, Triggers: 'New Matches', ExportToWebhookIDs: '7' });
		expect(
			settleAutomation({
				automation: wired,
				baseline: OFF,
				staying: [{ webhookId: 7, events: ['newMatches'] }],
				leaving: [],
				existingIds: new Set([7]),
			}),
		).toBeUndefined();
	});

	test('the last trigger leaving brings the baseline back exactly, other webhooks of the baseline included', () => {
		const baseline = { isEnabled: 0, triggers: 'Status Changes', webhookIds: '3' };
		const wired = automation({
			isEnabled: 1,
			Triggers: 'New Matches,Status Changes',
			ExportToWebhookIDs: '3,7',
		});
		expect(
			settleAutomation({
				automation: wired,
				baseline,
				staying: [],
				leaving: [{ webhookId: 7, events: ['newMatches'] }],
				existingIds: new Set([3]),
			}),
		).toMatchObject({
			isEnabled: 0,
			Triggers: 'Status Changes',
			ExportToWebhookIDs: '3',
		});
	});

	test('Triggers somebody changed while the trigger was wired stay as they set them', () => {
		const changed = automation({
			isEnabled: 1,
			Triggers: 'New Matches,Status Changes',
			ExportToWebhookIDs: '7',
		});
		expect(
			settleAutomation({
				automation: changed,
				baseline: OFF,
				staying: [],
				leaving: [{ webhookId: 7, events: ['newMatches'] }],
				existingIds: new Set(),
			}),
		).toMatchObject({
			isEnabled: 0,
			Triggers: 'New Matches,Status Changes',
			ExportToWebhookIDs: '',
		});
	});

	test('a webhook wired since by somebody else keeps the automation on and firing', () => {
		const shared = automation({ isEnabled: 1, Triggers: 'New Matches', ExportToWebhookIDs: '7,9' });
		expect(
			settleAutomation({
				automation: shared,
				baseline: OFF,
				staying: [],
				leaving: [{ webhookId: 7, events: ['newMatches'] }],
				existingIds: new Set([9]),
			}),
		).toMatchObject({
			isEnabled: 1,
			Triggers: 'New Matches',
			ExportToWebhookIDs: '9',
		});
	});

	test('of two triggers on a list, the one leaving takes its events along; the one staying keeps its own', () => {
		const both = automation({
			isEnabled: 1,
			Triggers: 'New Matches,Status Changes',
			ExportToWebhookIDs: '7,8',
		});
		expect(
			settleAutomation({
				automation: both,
				baseline: OFF,
				staying: [{ webhookId: 8, events: ['statusChanges'] }],
				leaving: [{ webhookId: 7, events: ['newMatches'] }],
				existingIds: new Set([8]),
			}),
		).toMatchObject({ isEnabled: 1, Triggers: 'Status Changes', ExportToWebhookIDs: '8' });
	});

	test('an id wired to the automation whose webhook is gone, and that the baseline did not have, is dropped', () => {
		const dangling = automation({
			isEnabled: 1,
			Triggers: 'New Matches',
			ExportToWebhookIDs: '3,7,8',
		});
		const baseline = { isEnabled: 1, triggers: 'New Matches', webhookIds: '3' };
		expect(
			settleAutomation({
				automation: dangling,
				baseline,
				staying: [{ webhookId: 7, events: ['newMatches'] }],
				leaving: [],
				existingIds: new Set([7]),
			}),
		).toMatchObject({
			isEnabled: 1,
			Triggers: 'New Matches',
			ExportToWebhookIDs: '3,7',
		});
	});
});
