import type { IDataObject } from 'n8n-workflow';

import type { VariantName } from '../../../sandbox/types';
import { control, useVariants } from '../../support/helpers';
import { createMonitoredList, useTriggerSandbox } from '../../support/triggerHarness';

// The PropRadar Trigger against the sandbox's variants of the delivery body (docs/api.md, "Every guess"):
// the service's own deliveries, as each variant shapes them, reach the trigger through its webhook().
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
