import { control } from './helpers';
import { createMonitoredList, useTriggerSandbox } from './triggerHarness';

// A bound against a hung run on a busy machine, not a speed assertion.
jest.setTimeout(60_000);

/**
 * The trigger looks up the Change Kinds it is given as its own names (issue 13, point 6): an
 * inherited key name such as "constructor" (from an imported workflow or an expression) is no
 * kind of change, and the kinds given with it still work.
 */
const { sb, receiver, trigger } = useTriggerSandbox();

test('Change Kinds "constructor" and "toString" are no kinds of change; the real kind given with them still starts executions', async () => {
	const listId = await createMonitoredList(sb, 'Trigger change kind names');
	const wf = trigger(listId, { events: ['statusChanges'], options: { changeKinds: ['constructor', 'toString', 'listingStatus'] } });
	await wf.activate();
	try {
		const seeded = await control<{ PropID: string }>(sb, 'POST', '/_sandbox/simulate/new-match', { ListID: listId });
		const seen = receiver.deliveriesOf(wf.id).length;
		expect((await control(sb, 'POST', '/_sandbox/simulate/change', { PropID: seeded.body.PropID, change: 'listing' })).status).toBe(200);
		const [delivery] = receiver.deliveriesOf(wf.id).slice(seen);
		expect(delivery.status).toBe(200);
		expect(delivery.items).toHaveLength(1);
		expect(delivery.items![0]).toMatchObject({ TriggerType: 'Change', PropID: seeded.body.PropID });
	} finally {
		await wf.deactivate();
	}
});
