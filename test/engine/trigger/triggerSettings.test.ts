import {
	postDelivery,
	createMonitoredList,
	serviceSecret,
	useTriggerSandbox,
} from '../../support/triggerHarness';

/**
 * The trigger's Events, Change Kinds, Redelivery Window and switches as an expression may give them: a
 * comma-separated string where the editor gives a list works like the list; anything else is
 * refused at activation with an error naming the field and what it takes, before any request.
 */
const { sb, receiver, trigger } = useTriggerSandbox();

const bearer = (secret: unknown) => `Bearer ${String(secret)}`;
const change = (propId: string, change1: string) => ({
	TriggerType: 'Change',
	PropID: propId,
	ListID: 1,
	Change1: change1,
});

test('Events and Change Kinds given as comma-separated strings work as lists', async () => {
	const listId = await createMonitoredList(sb, 'Trigger settings from strings');
	const wf = trigger(listId, {
		events: 'statusChanges' as unknown as string[],
		options: { changeKinds: 'listingStatus, newLoan', redeliveryWindowSeconds: '0' },
	});
	await wf.activate();
	try {
		const secret = await serviceSecret(sb, wf);
		const answer = await postDelivery(
			wf.url(),
			[
				change('P000301', 'Listing Status:Active:Pending'),
				change('P000302', 'Listing Price:1:2'),
				change('P000303', 'Loan Amount:0:100000'),
			],
			bearer(secret),
		);
		expect(answer.status).toBe(200);
		expect(
			receiver
				.deliveriesOf(wf.id)
				.at(-1)!
				.items!.map((item) => item.PropID),
		).toEqual(['P000301', 'P000303']);
		// Redelivery Window "0": the same delivery again starts another execution.
		await postDelivery(
			wf.url(),
			change('P000301', 'Listing Status:Active:Pending'),
			bearer(secret),
		);
		await postDelivery(
			wf.url(),
			change('P000301', 'Listing Status:Active:Pending'),
			bearer(secret),
		);
		expect(
			receiver
				.deliveriesOf(wf.id)
				.slice(-2)
				.map((delivery) => delivery.items?.length),
		).toEqual([1, 1]);
	} finally {
		await wf.deactivate();
	}
});

test.each([
	[
		'Change Kinds as a number',
		{ events: ['statusChanges'], options: { changeKinds: 7 } },
		/^Change Kinds: a list of kinds of change; got 7$/,
	],
	[
		'Change Kinds as an object',
		{ events: ['statusChanges'], options: { changeKinds: { newLoan: true } } },
		/^Change Kinds: a list of kinds of change; got \{"newLoan":true\}$/,
	],
	[
		'Change Kinds with a label, not a kind',
		{ events: ['statusChanges'], options: { changeKinds: 'Listing Status' } },
		/^Change Kinds: "Listing Status" is no kind of change$/,
	],
	[
		'Events as a number',
		{ events: 3 as unknown as string[], options: {} },
		/^Events: choose New Matches, Status Changes or both \(got 3\)/,
	],
	[
		'Events with an unknown name',
		{ events: 'newMatches,everything' as unknown as string[], options: {} },
		/^Events: choose New Matches, Status Changes or both \(got "newMatches, everything"\)/,
	],
	[
		'a Redelivery Window that is no number',
		{ events: ['newMatches'], options: { redeliveryWindowSeconds: 'ten' } },
		/^Redelivery Window \(Seconds\): a number of seconds from 0 \(0 keeps every delivery\); got "ten"/,
	],
	[
		'a negative Redelivery Window',
		{ events: ['newMatches'], options: { redeliveryWindowSeconds: -5 } },
		/^Redelivery Window \(Seconds\): a number of seconds from 0 \(0 keeps every delivery\); got -5/,
	],
	[
		'Split Into Items as the text "false"',
		{ events: ['newMatches'], options: { splitIntoItems: 'false' } },
		/^Split Into Items: on or off \(true or false\); got "false"/,
	],
	[
		'Allow Charging Automation as the text "true"',
		{ events: ['newMatches'], options: { allowChargingAutomation: 'true' } },
		/^Allow Charging Automation: on or off \(true or false\); got "true"/,
	],
])('%s is refused at activation, before any request', async (_, on, message) => {
	const sent = sb.requests.length;
	await expect(trigger(5, on).hook('create')).rejects.toThrow(message);
	// What Change Kinds takes is in the description, each value with its name.
	if (String(message).includes('Change Kinds'))
		await expect(trigger(5, on).hook('create')).rejects.toMatchObject({
			description: expect.stringContaining(
				'"newTransfer" (New Transfer (Sale)), "newLoan" (New Loan), "newListing" (New Listing), "listingStatus" (Listing Status), "listingPrice" (Listing Price), "newForeclosure" (New Foreclosure), "foreclosureStatus" (Foreclosure Status)',
			),
		});
	expect(sb.requests.length).toBe(sent);
});
