import type { IDataObject } from 'n8n-workflow';

import type { VariantName } from '../../../sandbox/types';
import { control, useVariants } from '../../support/helpers';
import {
	automationOf,
	createMonitoredList,
	triggerWebhooksOf,
	useTriggerSandbox,
	webhooksOf,
} from '../../support/triggerHarness';

// The PropRadar Trigger against the sandbox's variants (docs/api.md, "Every guess"): the service's own
// deliveries, as each variant shapes them, reach the trigger through its webhook(); the answers to its
// registration and to its read of the list's automation in another shape.
jest.setTimeout(30_000);

const { sb, receiver, trigger } = useTriggerSandbox();

afterEach(() => useVariants(sb, []));

/** Activates a trigger on a new monitored list, turns `variants` on, and has the service deliver one new match. */
async function deliveredNewMatch(variants: VariantName[]) {
	const listId = await createMonitoredList(sb, `Variant ${variants.join(' ')}`);
	const wf = trigger(listId, { events: ['newMatches'] });
	await wf.activate();
	try {
		await useVariants(sb, variants);
		const fired = await control<{ PropID: string }>(sb, 'POST', '/_sandbox/simulate/new-match', {
			ListID: listId,
		});
		return { listId, propId: fired.body.PropID, deliveries: receiver.deliveriesOf(wf.id) };
	} finally {
		await useVariants(sb, []);
		await wf.deactivate();
	}
}

const started = (items: IDataObject[] | undefined) => items?.map((item) => item.PropID);

test('default: one flat object starts the workflow with the event', async () => {
	const { propId, listId, deliveries } = await deliveredNewMatch([]);
	expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
	expect(deliveries[0].items).toEqual([
		expect.objectContaining({ TriggerType: 'New Match', PropID: propId, ListID: listId }),
	]);
});

test('delivery-array: one event as a bare array starts the workflow with the event', async () => {
	const { propId, deliveries } = await deliveredNewMatch(['delivery-array']);
	expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
	expect(started(deliveries[0].items)).toEqual([propId]);
});

test('extra-fields: an event with a field no document names starts the workflow, the field kept', async () => {
	const { propId, deliveries } = await deliveredNewMatch(['extra-fields']);
	expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
	expect(deliveries[0].items).toEqual([
		expect.objectContaining({ PropID: propId, ServiceExtra: 'event' }),
	]);
});

test("delivery-wrapper: events inside an object's array start the workflow with each event", async () => {
	const { propId, deliveries } = await deliveredNewMatch(['delivery-wrapper']);
	expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
	expect(started(deliveries[0].items)).toEqual([propId]);
});

test('delivery-keys: an event whose kind has another key name starts the workflow with the event', async () => {
	const { propId, deliveries } = await deliveredNewMatch(['delivery-keys']);
	expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
	expect(deliveries[0].items).toEqual([
		expect.objectContaining({ PropID: propId, EventType: 'New Match' }),
	]);
});

test('delivery-unknown-kind: an event of a kind the node does not know starts the workflow as it arrived', async () => {
	const { propId, deliveries } = await deliveredNewMatch(['delivery-unknown-kind']);
	expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
	expect(deliveries[0].items).toEqual([
		expect.objectContaining({ PropID: propId, kind: 'unknown' }),
	]);
});

test('webhook-answer and automation-answer: the trigger reads both answers, wires its webhook, starts the workflow and unwires on deactivation', async () => {
	const listId = await createMonitoredList(sb, 'Variant answers');
	const before = await automationOf(sb, listId);
	const wf = trigger(listId, { events: ['newMatches'] });
	await useVariants(sb, ['webhook-answer', 'automation-answer']);
	try {
		await wf.activate();
		const webhookId = wf.registration().webhookId;
		expect(webhookId).toBeGreaterThan(0);
		await useVariants(sb, []);
		expect((await automationOf(sb, listId)).ExportToWebhookIDs).toBe(String(webhookId));
		const fired = await control<{ PropID: string }>(sb, 'POST', '/_sandbox/simulate/new-match', {
			ListID: listId,
		});
		expect(started(receiver.deliveriesOf(wf.id)[0]?.items)).toEqual([fired.body.PropID]);
		await useVariants(sb, ['webhook-answer', 'automation-answer']);
	} finally {
		await wf.deactivate();
	}
	await useVariants(sb, []);
	expect(await automationOf(sb, listId)).toEqual(before);
	expect(await triggerWebhooksOf(sb, listId)).toEqual([]);
});

test('a registration answer without a WebhookID, the webhook not found again: activation fails naming the assumption, what arrived and what to delete', async () => {
	const listId = await createMonitoredList(sb, 'Variant no WebhookID');
	const wf = trigger(listId, { events: ['newMatches'] });
	sb.faults.push(
		{
			method: 'POST',
			pathPrefix: '/v1/integrations/webhooks',
			count: 1,
			rewrite: () => ({ created: true }),
		},
		{
			method: 'GET',
			pathPrefix: '/v1/integrations/webhooks',
			query: { Fields: 'WebhookID,HookUrl,WebhookName,Secret' },
			count: 1000,
			status: 502,
		},
	);
	try {
		const error = await wf.activate().then(
			() => undefined,
			(failure: unknown) => failure as { message: string; description?: string },
		);
		expect(error?.message).toBe("PropRadar's answer to the new webhook holds no WebhookID");
		expect(error?.description).toContain('`results[0].WebhookID`');
		expect(error?.description).toContain('Arrived: {"created":true}');
		expect(error?.description).toMatch(
			/The webhook "n8n PropRadar Trigger \d+: N, was .*" for \S+ may exist/,
		);
		expect(error?.description).toContain('Webhook > Delete');
	} finally {
		sb.faults.length = 0;
	}
	// Found by its URL and name, it was deleted: nothing is left behind.
	expect(await triggerWebhooksOf(sb, listId)).toEqual([]);
	expect((await webhooksOf(sb)).filter((hook) => String(hook.HookUrl).endsWith(wf.path()))).toEqual(
		[],
	);
});
