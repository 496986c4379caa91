/**
 * The trigger's "New Listing" and "New Foreclosure" kinds on what the sandbox delivers when a
 * property in the list is listed, or goes into foreclosure, where it was not: a status that
 * changes from None (`Listing Status:None:Active`, `Foreclosure Status:None:Preforeclosure`).
 */
import { api, control } from '../../support/helpers';
import { createMonitoredList, useTriggerSandbox } from '../../support/triggerHarness';

const { sb, receiver, trigger } = useTriggerSandbox();

/** A property neither listed nor in foreclosure, read through the API. */
async function quietProperty(): Promise<string> {
	for (let index = 1; index <= 200; index++) {
		const propId = `P${String(index).padStart(6, '0')}`;
		const read = await api<{ results: Array<Record<string, unknown>> }>(
			sb,
			'GET',
			`/v1/properties/${propId}?Purchase=1&Fields=PropID,ListingStatus,ForeclosureStage`,
		);
		const [property] = read.body.results;
		if (property.ListingStatus == null && property.ForeclosureStage == null) return propId;
	}
	throw new Error('no property without a listing and a foreclosure among the first 200');
}

test('New Listing and New Foreclosure keep the first listing and the first foreclosure stage of a property, not the changes after them', async () => {
	const listId = await createMonitoredList(sb, 'Trigger new listings');
	const propId = await quietProperty();
	expect(
		(
			await api(sb, 'PUT', `/v1/lists/${listId}/items`, {
				Criteria: [{ name: 'PropID', value: [propId] }],
			})
		).status,
	).toBe(200);
	const wf = trigger(listId, {
		events: ['statusChanges'],
		options: { changeKinds: ['newListing', 'newForeclosure'] },
	});
	// A second trigger on the list that keeps every change: what the service delivered.
	const every = trigger(listId, { events: ['statusChanges'] });
	await wf.activate();
	await every.activate();
	try {
		const outcomes: Array<{ change: unknown; started: boolean }> = [];
		for (const change of ['listing', 'listing', 'foreclosure', 'foreclosure']) {
			const seen = receiver.deliveriesOf(wf.id).length;
			const seenEvery = receiver.deliveriesOf(every.id).length;
			expect(
				(await control(sb, 'POST', '/_sandbox/simulate/change', { PropID: propId, change })).status,
			).toBe(200);
			const [delivery] = receiver.deliveriesOf(wf.id).slice(seen);
			const [delivered] = receiver.deliveriesOf(every.id).slice(seenEvery);
			expect(delivery.status).toBe(200);
			outcomes.push({
				change: delivered.items?.[0]?.Change1,
				started: delivery.items !== undefined,
			});
		}
		expect(outcomes).toEqual([
			{ change: 'Listing Status:None:Active', started: true },
			{ change: 'Listing Status:Active:Pending', started: false },
			{ change: 'Foreclosure Status:None:Preforeclosure', started: true },
			{ change: 'Foreclosure Status:Preforeclosure:Auction', started: false },
		]);
	} finally {
		await wf.deactivate();
		await every.deactivate();
	}
});
