import type { IDataObject } from 'n8n-workflow';

import { api, control } from '../../support/helpers';
import {
	automationOf,
	createMonitoredList,
	serviceSecret,
	setAutomation,
	triggerWebhooksOf,
	TriggerWorkflow,
	useTriggerSandbox,
	webhooksOf,
	type Delivery,
} from '../../support/triggerHarness';
import { until } from '../../support/until';

// A bound against a hung run on a busy machine, not a speed assertion.
jest.setTimeout(60_000);

const { sb, receiver, trigger } = useTriggerSandbox();

/** A new property that enters the list, through the sandbox's control route. */
async function simulateNewMatch(listId: number): Promise<void> {
	const response = await control(sb, 'POST', '/_sandbox/simulate/new-match', { ListID: listId });
	expect(response.status).toBe(200);
}

/** A change of a property, through the sandbox's control route (it answers once its deliveries settled). */
async function simulateChange(
	propId: string,
	change: 'listing' | 'foreclosure' | 'transfer' | 'price' = 'listing',
): Promise<void> {
	const response = await control(sb, 'POST', '/_sandbox/simulate/change', {
		PropID: propId,
		change,
	});
	expect(response.status).toBe(200);
}

/** The next delivery of `wf` that started an execution, after the first `seen` ones. */
function nextExecution(wf: TriggerWorkflow, seen: number): Promise<Delivery> {
	return until(`an execution of ${wf.id}`, () =>
		receiver
			.deliveriesOf(wf.id)
			.slice(seen)
			.find((delivery) => delivery.items !== undefined),
	);
}

const executions = (wf: TriggerWorkflow) =>
	receiver.deliveriesOf(wf.id).filter((delivery) => delivery.items !== undefined);

test('a real sandbox delivery reaches webhook(): New Match, then a Status Change of that property', async () => {
	const listId = await createMonitoredList(sb, 'Trigger real deliveries');
	const wf = trigger(listId, { events: ['newMatches', 'statusChanges'] });
	await wf.activate();
	try {
		await simulateNewMatch(listId);
		const matched = await nextExecution(wf, 0);
		expect(matched.status).toBe(200);
		expect(matched.items).toHaveLength(1);
		const [property] = matched.items as IDataObject[];
		expect(property).toMatchObject({ TriggerType: 'New Match', ListID: listId });
		expect(typeof property.PropID).toBe('string');

		const seen = receiver.deliveriesOf(wf.id).length;
		await simulateChange(String(property.PropID));
		const changed = await nextExecution(wf, seen);
		expect(changed.items).toHaveLength(1);
		expect(changed.items![0]).toMatchObject({
			TriggerType: 'Change',
			PropID: property.PropID,
			ListID: listId,
		});
		expect(String(changed.items![0].Change1)).toMatch(/^[^:]+:.*:.*$/);
		expect(JSON.stringify(receiver.deliveriesOf(wf.id))).not.toContain(await serviceSecret(sb, wf));
	} finally {
		await wf.deactivate();
	}
});

test("a redelivery by the service (n8n's answer lost on the way: the connection dropped once the execution started) starts no second execution", async () => {
	const listId = await createMonitoredList(sb, 'Trigger redelivery');
	const wf = trigger(listId);
	await wf.activate();
	try {
		receiver.loseNextAnswers(1);
		await simulateNewMatch(listId);
		const [first, second, ...rest] = receiver.deliveriesOf(wf.id);
		expect(rest).toEqual([]);
		expect(first.status).toBeNull();
		expect(first.items).toHaveLength(1);
		expect(second.status).toBe(200);
		expect(second.items).toBeUndefined();
	} finally {
		await wf.deactivate();
	}
});

test("a delivery n8n could not start (it answered 500 after the trigger returned its items) is started by the service's redelivery, once", async () => {
	const listId = await createMonitoredList(sb, 'Trigger failed start');
	const wf = trigger(listId);
	await wf.activate();
	try {
		receiver.failNextStarts(1);
		await simulateNewMatch(listId);
		const [first, second, ...rest] = receiver.deliveriesOf(wf.id);
		expect(rest).toEqual([]);
		expect({ status: first.status, items: first.items }).toEqual({ status: 500, items: undefined });
		expect(second.status).toBe(200);
		expect(second.items).toHaveLength(1);
		expect(second.items![0]).toMatchObject({ TriggerType: 'New Match', ListID: listId });
	} finally {
		await wf.deactivate();
	}
});

test('a redelivery while n8n has not yet answered the first delivery is asked to come again, and starts the execution n8n then says it could not start, once', async () => {
	const listId = await createMonitoredList(sb, 'Trigger slow failed start');
	const wf = trigger(listId);
	await wf.activate();
	try {
		receiver.failNextStartsLate(1);
		await simulateNewMatch(listId);
		const [first, second, third, ...rest] = receiver.deliveriesOf(wf.id);
		expect(rest).toEqual([]);
		expect({ status: first.status, items: first.items }).toEqual({
			status: null,
			items: undefined,
		});
		// n8n had not answered the first yet: whether its execution started was not known.
		expect({ status: second.status, items: second.items }).toEqual({
			status: 503,
			items: undefined,
		});
		expect(third.status).toBe(200);
		expect(third.items).toHaveLength(1);
		expect(third.items![0]).toMatchObject({ TriggerType: 'New Match', ListID: listId });
	} finally {
		await wf.deactivate();
	}
});

test('Change Kinds: only the chosen kinds of status change start an execution', async () => {
	const listId = await createMonitoredList(sb, 'Trigger change kinds');
	const wf = trigger(listId, {
		events: ['statusChanges'],
		options: { changeKinds: ['foreclosureStatus', 'listingPrice'] },
	});
	await wf.activate();
	try {
		const seeded = await control<{ PropID: string }>(sb, 'POST', '/_sandbox/simulate/new-match', {
			ListID: listId,
		});
		// New Matches is not chosen, so the automation does not fire for it.
		expect(receiver.deliveriesOf(wf.id)).toHaveLength(0);
		const propId = seeded.body.PropID;

		for (const change of ['listing', 'transfer'] as const) {
			const seen = receiver.deliveriesOf(wf.id).length;
			await simulateChange(propId, change);
			const [delivery] = receiver.deliveriesOf(wf.id).slice(seen);
			expect({ change, status: delivery.status, items: delivery.items }).toEqual({
				change,
				status: 200,
				items: undefined,
			});
		}
		for (const [change, label] of [
			['foreclosure', 'Foreclosure Status'],
			['price', 'Listing Price'],
		] as const) {
			const seen = receiver.deliveriesOf(wf.id).length;
			await simulateChange(propId, change);
			const [delivery] = receiver.deliveriesOf(wf.id).slice(seen);
			expect(delivery.items).toHaveLength(1);
			expect(delivery.items![0]).toMatchObject({ TriggerType: 'Change', PropID: propId });
			expect(String(delivery.items![0].Change1).startsWith(`${label}:`)).toBe(true);
		}
	} finally {
		await wf.deactivate();
	}
});

test('"Listen for test event": the test URL gets deliveries and its registration goes when listening stops', async () => {
	const listId = await createMonitoredList(sb, 'Trigger test URL');
	const before = await automationOf(sb, listId);
	const wf = trigger(listId);
	await wf.activate(true);
	expect(wf.url(true)).toContain('/webhook-test/');
	expect((await webhooksOf(sb)).filter((hook) => hook.HookUrl === wf.url(true))).toHaveLength(1);

	await simulateNewMatch(listId);
	const delivery = await nextExecution(wf, 0);
	expect(delivery.test).toBe(true);
	expect(delivery.items![0]).toMatchObject({ TriggerType: 'New Match', ListID: listId });

	await wf.deactivate(true);
	expect((await webhooksOf(sb)).filter((hook) => hook.HookUrl === wf.url(true))).toHaveLength(0);
	expect(await automationOf(sb, listId)).toEqual(before);
});

test('"Listen for test event" on an active workflow: both URLs get deliveries; stopping the test leaves production wired', async () => {
	const listId = await createMonitoredList(sb, 'Trigger test and production');
	const before = await automationOf(sb, listId);
	const wf = trigger(listId);
	await wf.activate();
	await wf.activate(true);
	const urls = async () =>
		(await webhooksOf(sb))
			.map((hook) => hook.HookUrl)
			.filter((url) => url === wf.url() || url === wf.url(true));
	expect((await urls()).sort()).toEqual([wf.url(), wf.url(true)].sort());

	await simulateNewMatch(listId);
	const kinds = receiver
		.deliveriesOf(wf.id)
		.filter((delivery) => delivery.items !== undefined)
		.map((delivery) => delivery.test);
	expect(kinds.sort()).toEqual([false, true]);

	await wf.deactivate(true);
	expect(await urls()).toEqual([wf.url()]);
	expect(await wf.hook('checkExists')).toBe(true);
	const seen = receiver.deliveriesOf(wf.id).length;
	await simulateNewMatch(listId);
	const delivery = await nextExecution(wf, seen);
	expect(delivery.test).toBe(false);

	await wf.deactivate();
	expect(await urls()).toEqual([]);
	expect(await automationOf(sb, listId)).toEqual(before);
});

test('two trigger workflows on one list both receive deliveries; deactivating one leaves the other wired', async () => {
	const listId = await createMonitoredList(sb, 'Trigger two workflows');
	const before = await automationOf(sb, listId);
	const first = trigger(listId, { events: ['newMatches'] });
	const second = trigger(listId, { events: ['newMatches', 'statusChanges'] });
	await first.activate();
	await second.activate();
	const firstId = first.registration().webhookId!;
	const secondId = second.registration().webhookId!;
	expect(await automationOf(sb, listId)).toMatchObject({
		isEnabled: 1,
		Triggers: 'New Matches,Status Changes',
		ExportToWebhookIDs: `${firstId},${secondId}`,
	});

	await simulateNewMatch(listId);
	const [toFirst, toSecond] = await Promise.all([
		nextExecution(first, 0),
		nextExecution(second, 0),
	]);
	expect(toFirst.items![0]).toMatchObject({ TriggerType: 'New Match', ListID: listId });
	expect(toSecond.items![0]).toEqual(toFirst.items![0]);

	await first.deactivate();
	expect(await second.hook('checkExists')).toBe(true);
	expect(await automationOf(sb, listId)).toMatchObject({
		isEnabled: 1,
		Triggers: 'New Matches,Status Changes',
		ExportToWebhookIDs: String(secondId),
	});
	const firstExecutions = executions(first).length;
	const seen = receiver.deliveriesOf(second.id).length;
	await simulateNewMatch(listId);
	await nextExecution(second, seen);
	expect(executions(first)).toHaveLength(firstExecutions);

	await second.deactivate();
	expect(await automationOf(sb, listId)).toEqual(before);
});

test('workflows activated and deactivated at the same moment (n8n starting up) do not overwrite each other', async () => {
	const listId = await createMonitoredList(sb, 'Trigger concurrent');
	const before = await automationOf(sb, listId);
	const workflows = [
		trigger(listId, { events: ['newMatches'] }),
		trigger(listId, { events: ['statusChanges'] }),
		trigger(listId, { events: ['newMatches', 'statusChanges'] }),
	];
	await Promise.all(workflows.map((wf) => wf.activate()));
	const wired = await automationOf(sb, listId);
	expect(String(wired.ExportToWebhookIDs).split(',').sort()).toEqual(
		workflows.map((wf) => String(wf.registration().webhookId)).sort(),
	);
	expect(wired.Triggers).toBe('New Matches,Status Changes');
	for (const wf of workflows) expect(await wf.hook('checkExists')).toBe(true);

	await Promise.all(workflows.map((wf) => wf.deactivate()));
	expect(await automationOf(sb, listId)).toEqual(before);
	expect(await triggerWebhooksOf(sb, listId)).toEqual([]);
});

test('100 activate/deactivate cycles, one or two workflows in either order, leave no webhook and the automation exactly as before', async () => {
	const listId = await createMonitoredList(sb, 'Trigger cycles');
	const otherList = await createMonitoredList(sb, 'Trigger cycles other');
	const foreign = await api<{ results: Array<{ WebhookID: number }> }>(
		sb,
		'POST',
		'/v1/integrations/webhooks',
		{ HookUrl: 'http://127.0.0.1:9/crm', WebhookName: 'CRM export' },
	);
	await setAutomation(sb, listId, {
		isEnabled: 0,
		Triggers: 'Status Changes',
		ExportToWebhookIDs: String(foreign.body.results[0].WebhookID),
		SetInterestLevel: 4,
		AddToLists: String(otherList),
	});
	const automationBefore = await automationOf(sb, listId);
	const webhooksBefore = await webhooksOf(sb);

	for (let cycle = 0; cycle < 100; cycle++) {
		const first = trigger(listId, {
			events: cycle % 3 === 0 ? ['newMatches', 'statusChanges'] : ['newMatches'],
		});
		await first.activate();
		if (cycle % 2 === 1) {
			const second = trigger(listId, { events: ['statusChanges'] });
			await second.activate();
			expect((await automationOf(sb, listId)).isEnabled).toBe(1);
			const order = cycle % 4 === 1 ? [first, second] : [second, first];
			for (const wf of order) await wf.deactivate();
		} else {
			expect((await automationOf(sb, listId)).isEnabled).toBe(1);
			await first.deactivate();
		}
	}

	expect(await triggerWebhooksOf(sb, listId)).toEqual([]);
	expect(await webhooksOf(sb)).toEqual(webhooksBefore);
	expect(await automationOf(sb, listId)).toEqual(automationBefore);
	// 100 cycles of real activations: this bound only stops a hung run, on a machine whose cores
	// other test files share (the file's minute is for one activation or delivery).
}, 300_000);
