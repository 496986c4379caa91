import type { IDataObject } from 'n8n-workflow';

import { TOKENS } from '../../support/harness';
import { api } from '../../support/helpers';
import {
	automationOf,
	createMonitoredList,
	cutWebhookNames,
	serviceSecret,
	setAutomation,
	triggerWebhooksOf,
	TriggerWorkflow,
	useTriggerSandbox,
	webhooksOf,
} from '../../support/triggerHarness';

// A bound against a hung run on a busy machine, not a speed assertion.
jest.setTimeout(120_000);

/**
 * The trigger's memory does not hang on a webhook's name (issue 49, item 4). The documents set no
 * limit on webhook names, but the service cuts ListName to 50 characters; the sandbox's switch
 * (`PUT /_sandbox/webhook-names`) stores names cut as it is told. What a trigger needs to go again
 * (its webhook's ID, the automation before) is in its static data; a name cut to 50 still tells the
 * list's other triggers what they need; a name cut to its first 21 characters, "n8n PropRadar
 * Trigger", tells nothing but that a trigger wrote it.
 */
const { sb, trigger } = useTriggerSandbox();

afterEach(async () => {
	await cutWebhookNames(sb);
});

const ownWebhooks = async (wf: TriggerWorkflow) =>
	(await webhooksOf(sb)).filter((hook) => String(hook.HookUrl).endsWith(wf.path()));

/** A list whose automation is on for Status Changes and exports to another integration's webhook. */
async function listWithBaseline(name: string): Promise<{ listId: number; before: IDataObject }> {
	const listId = await createMonitoredList(sb, name);
	const crm = await api<{ results: Array<{ WebhookID: number }> }>(
		sb,
		'POST',
		'/v1/integrations/webhooks',
		{ HookUrl: 'http://127.0.0.1:9/crm', WebhookName: `CRM export ${name}` },
	);
	await setAutomation(sb, listId, {
		isEnabled: 1,
		Triggers: 'Status Changes',
		ExportToWebhookIDs: String(crm.body.results[0].WebhookID),
	});
	return { listId, before: await automationOf(sb, listId) };
}

test('the switch stores webhook names cut to the length given, and whole again once it is cleared', async () => {
	const long = 'a webhook name of more than fifty characters, for the switch';
	await cutWebhookNames(sb, 50);
	await api(sb, 'POST', '/v1/integrations/webhooks', {
		HookUrl: 'http://127.0.0.1:9/cut',
		WebhookName: long,
	});
	await cutWebhookNames(sb);
	await api(sb, 'POST', '/v1/integrations/webhooks', {
		HookUrl: 'http://127.0.0.1:9/whole',
		WebhookName: long,
	});
	const names = Object.fromEntries(
		(await webhooksOf(sb)).map((hook) => [hook.HookUrl, hook.WebhookName]),
	);
	expect(names['http://127.0.0.1:9/cut']).toBe(long.slice(0, 50));
	expect(names['http://127.0.0.1:9/whole']).toBe(long);
});

test.each([50, 21])(
	'names cut to %s characters: activation wires, checkExists sees it, deactivation leaves no webhook and the automation exactly as before',
	async (maxLength) => {
		const { listId, before } = await listWithBaseline(`Name cut ${maxLength}`);
		await cutWebhookNames(sb, maxLength);
		const wf = trigger(listId, { events: ['newMatches', 'statusChanges'] });
		await wf.activate();
		const [own] = await ownWebhooks(wf);
		expect(String(own.WebhookName).length).toBeLessThanOrEqual(maxLength);
		expect(own.WebhookID).toBe(wf.registration().webhookId);
		expect(wf.registration().baseline).toEqual({
			isEnabled: 1,
			triggers: 'Status Changes',
			webhookIds: before.ExportToWebhookIDs,
		});
		// The static data holds no secret: neither the access token nor what PropRadar signs with.
		const kept = JSON.stringify(wf.workflow.staticData);
		expect(kept).not.toContain(TOKENS.main);
		expect(kept).not.toContain(await serviceSecret(sb, wf));
		expect(await automationOf(sb, listId)).toEqual({
			...before,
			Triggers: 'New Matches,Status Changes',
			ExportToWebhookIDs: `${String(before.ExportToWebhookIDs)},${own.WebhookID}`,
		});
		expect(await wf.hook('checkExists')).toBe(true);

		await wf.deactivate();
		expect(await ownWebhooks(wf)).toEqual([]);
		expect(await automationOf(sb, listId)).toEqual(before);
	},
);

test('names cut to 21 characters: after a restart (the static data read back) the trigger is still found and removed', async () => {
	const { listId, before } = await listWithBaseline('Name cut restart');
	await cutWebhookNames(sb, 21);
	const wf = trigger(listId);
	await wf.activate();
	const again = wf.restarted();
	expect(await again.hook('checkExists')).toBe(true);
	await again.deactivate();
	expect(await ownWebhooks(wf)).toEqual([]);
	expect(await automationOf(sb, listId)).toEqual(before);
});

test.each([
	['the first one activated leaves first', 0],
	['the last one activated leaves first', 1],
])(
	'names cut to 50 characters, two trigger workflows on one list: %s; each step keeps the other wired, the last brings the automation back exactly',
	async (_order, leavesFirst) => {
		const { listId, before } = await listWithBaseline(`Name cut two ${leavesFirst}`);
		await cutWebhookNames(sb, 50);
		const workflows = [
			trigger(listId, { events: ['newMatches'] }),
			trigger(listId, { events: ['statusChanges'] }),
		];
		for (const wf of workflows) await wf.activate();
		const ids = workflows.map((wf) => wf.registration().webhookId);
		expect(await automationOf(sb, listId)).toEqual({
			...before,
			Triggers: 'New Matches,Status Changes',
			ExportToWebhookIDs: `${String(before.ExportToWebhookIDs)},${ids[0]},${ids[1]}`,
		});
		expect(workflows[1].registration().baseline).toEqual(workflows[0].registration().baseline);

		const [leaving, staying] = leavesFirst === 0 ? workflows : [...workflows].reverse();
		await leaving.deactivate();
		expect(await staying.hook('checkExists')).toBe(true);
		expect(await automationOf(sb, listId)).toEqual({
			...before,
			Triggers: staying === workflows[0] ? 'New Matches,Status Changes' : 'Status Changes',
			ExportToWebhookIDs: `${String(before.ExportToWebhookIDs)},${staying.registration().webhookId}`,
		});

		await staying.deactivate();
		expect(await triggerWebhooksOf(sb, listId)).toEqual([]);
		expect(await automationOf(sb, listId)).toEqual(before);
	},
);

test('names cut to 21 characters: a second trigger on the list is refused with nothing registered, as it could not know the automation before the first; the first still goes cleanly', async () => {
	const { listId, before } = await listWithBaseline('Name cut refused');
	await cutWebhookNames(sb, 21);
	const first = trigger(listId);
	const second = trigger(listId, { events: ['statusChanges'] });
	await first.activate();
	const wired = await automationOf(sb, listId);
	await expect(second.activate()).rejects.toThrow(
		`List ${listId}: another PropRadar Trigger's webhook (${first.registration().webhookId}) is wired to its automation`,
	);
	expect(await ownWebhooks(second)).toEqual([]);
	expect(second.registration()).toEqual({});
	expect(await automationOf(sb, listId)).toEqual(wired);

	await first.deactivate();
	expect(await ownWebhooks(first)).toEqual([]);
	expect(await automationOf(sb, listId)).toEqual(before);
});

test('a registration by an earlier version (no static data, its long name whole) is removed and the automation restored from that name', async () => {
	const listId = await createMonitoredList(sb, 'Name earlier version');
	const before = await automationOf(sb, listId);
	const wf = trigger(listId);
	// What an earlier version registered and wired: the baseline in the name only.
	const created = await api<{ results: Array<{ WebhookID: number }> }>(
		sb,
		'POST',
		'/v1/integrations/webhooks',
		{
			HookUrl: wf.url(),
			WebhookName: `n8n PropRadar Trigger: list ${listId}, New Matches [before: off | none | hooks -]`,
			Secret: 'a secret an earlier version kept',
		},
	);
	await setAutomation(sb, listId, {
		isEnabled: 1,
		Triggers: 'New Matches',
		ExportToWebhookIDs: String(created.body.results[0].WebhookID),
	});
	expect(wf.staticData).toEqual({});

	await wf.deactivate();
	expect(await ownWebhooks(wf)).toEqual([]);
	expect(await automationOf(sb, listId)).toEqual(before);
});
