/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The delivery body is inferred (docs/api.md), so the trigger reads what comes: one flat object, an
 * array, or an object with an array inside. An event it cannot classify starts the workflow as it
 * arrived, its kind named `unknown`, unless Change Kinds narrows what the user receives: then it
 * is answered 200 and n8n's log says why. The secret check is as strict for every shape.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import {
	createMonitoredList,
	postDelivery,
	serviceSecret,
	useTriggerSandbox,
	type TriggerWorkflow,
} from '../../support/triggerHarness';

jest.setTimeout(30_000);

const { sb, receiver, trigger } = useTriggerSandbox();

const newMatch = (propId: string) => ({ TriggerType: 'New Match', PropID: propId, ListID: 1 });

async function deliver(wf: TriggerWorkflow, body: unknown, authorization?: string) {
	const answer = await postDelivery(
		wf.url(),
		body,
		authorization ?? `Bearer ${await serviceSecret(sb, wf)}`,
	);
	return { status: answer.status, items: receiver.deliveriesOf(wf.id).at(-1)!.items };
}

describe('a trigger that takes every kind (no Change Kinds chosen)', () => {
	let wf: TriggerWorkflow;
	beforeAll(async () => {
		wf = trigger(await createMonitoredList(sb, 'Delivery bodies'));
		await wf.activate();
	});
	afterAll(async () => await wf.deactivate());

	test('one flat object starts one execution with it', async () => {
		expect(await deliver(wf, newMatch('P000401'))).toEqual({
			status: 200,
			items: [newMatch('P000401')],
		});
	});

	test('an array starts one execution with each of its events', async () => {
		const body = [newMatch('P000402'), newMatch('P000403')];
		expect(await deliver(wf, body)).toEqual({ status: 200, items: body });
	});

	test.each(['results', 'events', 'properties', 'Data'])(
		'an object with the events in "%s" starts one execution with each of them',
		async (key) => {
			const events = [newMatch(`P-${key}-1`), newMatch(`P-${key}-2`)];
			expect(await deliver(wf, { [key]: events })).toEqual({ status: 200, items: events });
		},
	);

	test("a wrapper's own fields go to each event inside it, the event's own first", async () => {
		const body = {
			TriggerType: 'New Match',
			ListID: 7,
			resultCount: 2,
			results: [{ PropID: 'P000404' }, { PropID: 'P000414', ListID: 8 }],
		};
		expect(await deliver(wf, body)).toEqual({
			status: 200,
			items: [
				{ TriggerType: 'New Match', ListID: 7, resultCount: 2, PropID: 'P000404' },
				{ TriggerType: 'New Match', ListID: 8, resultCount: 2, PropID: 'P000414' },
			],
		});
	});

	test('an event of a kind it does not know starts the workflow as it arrived, kind "unknown"', async () => {
		const priceDrop = { TriggerType: 'Price Drop', PropID: 'P000405' };
		const noType = { PropID: 'P000406', City: 'Portland' };
		expect(await deliver(wf, [priceDrop, noType, newMatch('P000407')])).toEqual({
			status: 200,
			items: [
				{ kind: 'unknown', ...priceDrop },
				{ kind: 'unknown', ...noType },
				newMatch('P000407'),
			],
		});
	});

	test('another spelling of the type, under another key, is still known', async () => {
		const body = [
			{ triggerType: 'new_match', PropID: 'P000408' },
			{ EventType: 'NewMatch', PropID: 'P000409' },
		];
		expect(await deliver(wf, body)).toEqual({ status: 200, items: body });
	});

	test('a wrong secret is refused for every shape, and nothing starts', async () => {
		const secret = await serviceSecret(sb, wf);
		const wrong = `Bearer ${secret.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}`;
		const shapes = [
			newMatch('P000410'),
			[newMatch('P000411')],
			{ results: [newMatch('P000412')] },
			{ TriggerType: 'Price Drop', PropID: 'P000413' },
		];
		for (const body of shapes) {
			for (const authorization of [wrong, '', `Basic ${secret}`])
				expect(await deliver(wf, body, authorization)).toEqual({ status: 401, items: undefined });
		}
	});

	test('a body that is no object and holds none is still refused with 400', async () => {
		for (const body of ['{"TriggerType": "New Match",', '42', '"text"', 'null', '[1, 2]', '{}'])
			expect({ body, ...(await deliver(wf, body)) }).toEqual({
				body,
				status: 400,
				items: undefined,
			});
	});
});

test('with Change Kinds chosen, an unknown event is answered 200, starts nothing, and the log says why', async () => {
	const wf = trigger(await createMonitoredList(sb, 'Delivery bodies, some kinds'), {
		events: ['newMatches', 'statusChanges'],
		options: { changeKinds: ['listingStatus'] },
	});
	await wf.activate();
	const logged = jest.spyOn(Container.get(Logger), 'info');
	try {
		const unknown = { TriggerType: 'Price Drop', PropID: 'P000501' };
		expect(await deliver(wf, { events: [unknown] })).toEqual({ status: 200, items: undefined });
		const lines = logged.mock.calls.map((call) => JSON.stringify(call));
		expect(lines).toEqual([expect.stringContaining('1 event of a kind it does not know')]);
		expect(lines[0]).toContain('Change Kinds');
		expect(lines[0]).toContain(wf.id);

		const change = { TriggerType: 'Change', PropID: 'P000502', Change1: 'Listing Status:A:B' };
		expect(await deliver(wf, [unknown, change])).toEqual({ status: 200, items: [change] });
	} finally {
		logged.mockRestore();
		await wf.deactivate();
	}
});
