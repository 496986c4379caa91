import fc from 'fast-check';

import { api } from '../../support/helpers';
import {
	automationOf,
	createMonitoredList,
	setAutomation,
	triggerWebhooksOf,
	useTriggerSandbox,
} from '../../support/triggerHarness';

/**
 * Property-based: whatever the automation was, whichever events each of up to three trigger
 * workflows on one list chose, and in whatever order they are activated and deactivated, every
 * active trigger stays wired and, once all are off, the automation is exactly as it was and no
 * trigger webhook is left. Runs against the real sandbox, bounded in runs.
 */

// A bound against a hung run on a busy machine, not a speed assertion.
jest.setTimeout(180_000);

const { sb, trigger } = useTriggerSandbox();
let foreignWebhook: number;

beforeAll(async () => {
	const created = await api<{ results: Array<{ WebhookID: number }> }>(
		sb,
		'POST',
		'/v1/integrations/webhooks',
		{ HookUrl: 'http://127.0.0.1:9/crm', WebhookName: 'CRM export' },
	);
	foreignWebhook = created.body.results[0].WebhookID;
});

const TRIGGERS = { newMatches: 'New Matches', statusChanges: 'Status Changes' } as const;
type Event = keyof typeof TRIGGERS;

const eventsArbitrary = fc.constantFrom<Event[]>(
	['newMatches'],
	['statusChanges'],
	['newMatches', 'statusChanges'],
);
const scenario = fc.record({
	baseline: fc.record({
		isEnabled: fc.constantFrom(0, 1),
		Triggers: fc.constantFrom('', 'New Matches', 'Status Changes', 'New Matches,Status Changes'),
		foreign: fc.boolean(),
		SetInterestLevel: fc.integer({ min: 0, max: 5 }),
	}),
	workflows: fc.array(eventsArbitrary, { minLength: 1, maxLength: 3 }),
	/** Which workflow each step switches on or off. */
	toggles: fc.array(fc.nat(2), { minLength: 1, maxLength: 8 }),
	/** Order in which the ones still on are switched off at the end. */
	finalOrder: fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 }),
});

let run = 0;

test('any order of activations and deactivations keeps active triggers wired and ends exactly at the baseline', async () => {
	await fc.assert(
		fc.asyncProperty(scenario, async ({ baseline, workflows, toggles, finalOrder }) => {
			const listId = await createMonitoredList(sb, `Trigger orders ${++run}`);
			await setAutomation(sb, listId, {
				isEnabled: baseline.isEnabled,
				Triggers: baseline.Triggers,
				ExportToWebhookIDs: baseline.foreign ? String(foreignWebhook) : '',
				SetInterestLevel: baseline.SetInterestLevel,
			});
			const before = await automationOf(sb, listId);
			const triggers = workflows.map((events) => trigger(listId, { events }));
			const active = new Set<number>();

			const checkActiveWired = async () => {
				const automation = await automationOf(sb, listId);
				const wired = String(automation.ExportToWebhookIDs).split(',');
				for (const index of active) {
					const wf = triggers[index];
					expect(wired).toContain(String(wf.registration().webhookId));
					expect(automation.isEnabled).toBe(1);
					for (const event of workflows[index])
						expect(String(automation.Triggers).split(',')).toContain(TRIGGERS[event]);
					expect(await wf.hook('checkExists')).toBe(true);
				}
			};

			for (const toggle of toggles) {
				const index = toggle % triggers.length;
				if (active.has(index)) {
					await triggers[index].deactivate();
					active.delete(index);
				} else {
					await triggers[index].activate();
					active.add(index);
				}
				await checkActiveWired();
			}
			for (const index of finalOrder) {
				if (!active.has(index)) continue;
				await triggers[index].deactivate();
				active.delete(index);
				await checkActiveWired();
			}

			expect(await automationOf(sb, listId)).toEqual(before);
			const left = await triggerWebhooksOf(sb, listId);
			expect(left).toEqual([]);
		}),
		{ numRuns: 40 },
	);
});
