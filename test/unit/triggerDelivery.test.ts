import { createHmac } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import {
	bearerMatches,
	changesOf,
	CHANGE_KINDS,
	deliverySecret,
	eventOfTriggerType,
	parseDelivery,
	sameSecret,
	sortDelivered,
	wanted,
	type ChangeKind,
} from '../../nodes/PropRadar/trigger/delivery';
import {
	ANSWER_WAIT_MS,
	RedeliveryWindow,
	redeliveryKey,
} from '../../nodes/PropRadar/trigger/webhook';

/**
 * What the trigger does with one delivery (nodes/PropRadar/trigger/delivery.ts), without n8n: the
 * secret check, the body's shape, the event and change-kind filters and the redelivery window.
 */

describe('the secret', () => {
	test.each([
		['Bearer s3cret', true],
		['bearer s3cret', true],
		['Bearer   s3cret  ', true],
		['Bearer s3cret2', false],
		['Bearer s3cre', false],
		['s3cret', false],
		['Basic s3cret', false],
		['Bearer ', false],
		['', false],
	])('%j against the secret: %s', (header, matches) => {
		expect(bearerMatches(header, 's3cret')).toBe(matches);
	});

	test('no header, a header that is not one string, or an empty secret never match', () => {
		expect(bearerMatches(undefined, 's3cret')).toBe(false);
		expect(bearerMatches(['Bearer s3cret'], 's3cret')).toBe(false);
		expect(bearerMatches('Bearer ', '')).toBe(false);
		expect(bearerMatches('Bearer x', '')).toBe(false);
	});
});

describe('the delivery secret, derived when needed', () => {
	const salt = 'c0ffee'.repeat(10);

	test('an HMAC-SHA256 of the stored salt keyed with the access token: the same for the same two, never the salt or the token', () => {
		const secret = deliverySecret('sandbox-token', salt);
		// Pinned: another derivation would refuse every delivery to the registrations made so far.
		expect(secret).toBe(
			createHmac('sha256', 'sandbox-token')
				.update(`n8n-nodes-propradar trigger delivery:${salt}`, 'utf8')
				.digest('hex'),
		);
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(deliverySecret('sandbox-token', salt)).toBe(secret);
		expect(secret).not.toContain(salt);
	});

	test('another token or another salt gives another secret', () => {
		const secret = deliverySecret('sandbox-token', salt);
		expect(deliverySecret('sandbox-token-2', salt)).not.toBe(secret);
		expect(deliverySecret('sandbox-token', `${salt}0`)).not.toBe(secret);
	});

	test('the secret PropRadar holds is compared with the one derived, in constant time; an empty one matches nothing', () => {
		const secret = deliverySecret('sandbox-token', salt);
		expect(sameSecret(secret, deliverySecret('sandbox-token', salt))).toBe(true);
		expect(sameSecret(secret, deliverySecret('rotated-token', salt))).toBe(false);
		expect(sameSecret('', '')).toBe(false);
		expect(sameSecret(secret, '')).toBe(false);
	});

	test.each([
		['no token', '', salt],
		['no salt', 'sandbox-token', ''],
		['a salt that is no text', 'sandbox-token', undefined],
	])('%s: no secret, so that nothing matches', (_name, token, stored) => {
		expect(deliverySecret(token, stored)).toBe('');
		expect(bearerMatches('Bearer ', deliverySecret(token, stored))).toBe(false);
	});
});

describe('the body', () => {
	const match = { TriggerType: 'New Match', PropID: 'P000001' };

	test('one event or an array of events, parsed by n8n or still text or bytes', () => {
		expect(parseDelivery(match)).toEqual({ events: [match] });
		expect(parseDelivery([match, { TriggerType: 'Change' }])).toEqual({
			events: [match, { TriggerType: 'Change' }],
		});
		expect(parseDelivery(JSON.stringify([match]))).toEqual({ events: [match] });
		expect(parseDelivery(Buffer.from(JSON.stringify(match)))).toEqual({ events: [match] });
	});

	test('an object with the events in an array: named, or its only array of objects', () => {
		expect(parseDelivery({ results: [match], resultCount: 1 })).toEqual({
			events: [{ ...match, resultCount: 1 }],
		});
		expect(parseDelivery({ Properties: [] })).toEqual({ events: [] });
		expect(parseDelivery({ hook: 'x', rows: [match] })).toEqual({
			events: [{ hook: 'x', ...match }],
		});
		// An event with a list of objects in it stays one event.
		const withOwners = { ...match, Owners: [{ Name: 'A' }] };
		expect(parseDelivery(withOwners)).toEqual({ events: [withOwners] });
		expect(parseDelivery({ ListID: 3, events: [{ PropID: 'P1', ListID: 4 }] })).toEqual({
			events: [{ PropID: 'P1', ListID: 4 }],
		});
	});

	test('an event without a TriggerType is read', () => {
		expect(parseDelivery({ PropID: 'P000001' })).toEqual({ events: [{ PropID: 'P000001' }] });
	});

	test.each([
		['text that is not JSON', 'not json', 'The body is not JSON'],
		['bytes that are not JSON', Buffer.from('{"TriggerType":'), 'The body is not JSON'],
		['nothing', null, 'The body is empty'],
		['JSON null', 'null', 'The body is empty'],
		['a number', 5, 'The body is not a JSON object'],
		['an empty object', {}, 'The body holds no event'],
		['an element that is no object', [match, 'x'], 'Element 1 is not a JSON object'],
		['an element that is an array', [[match]], 'Element 0 is not a JSON object'],
		['a wrapped element that is no object', { results: [1] }, 'Element 0 is not a JSON object'],
	])('refused, saying what is wrong: %s', (_what, body, malformed) => {
		expect(parseDelivery(body)).toEqual({ malformed });
	});
});

describe('what starts the workflow', () => {
	const match = { TriggerType: 'New Match', PropID: 'P1' };
	const sale = { TriggerType: 'Change', PropID: 'P2', Change1: 'Last Sale Date:a:b' };
	const unknown = { TriggerType: 'Price Drop', PropID: 'P3' };

	test('an event of no known kind passes, named unknown, when no Change Kinds are chosen', () => {
		expect(
			sortDelivered([match, sale, unknown, { PropID: 'P4' }], {
				events: ['newMatches'],
				changeKinds: [],
			}),
		).toEqual({
			passed: [match, { kind: 'unknown', ...unknown }, { kind: 'unknown', PropID: 'P4' }],
			unknown: 0,
			notChosen: 1,
		});
	});

	test('its own kind field is kept as it arrived', () => {
		expect(
			sortDelivered([{ kind: 'x', PropID: 'P5' }], { events: ['newMatches'], changeKinds: [] })
				.passed,
		).toEqual([{ kind: 'x', PropID: 'P5' }]);
	});

	test('with Change Kinds chosen, it is counted, not passed', () => {
		expect(
			sortDelivered([match, sale, unknown], {
				events: ['newMatches', 'statusChanges'],
				changeKinds: ['newTransfer'],
			}),
		).toEqual({ passed: [match, sale], unknown: 1, notChosen: 0 });
	});
});

describe('which events a workflow wants', () => {
	test.each([
		['New Match', 'newMatches'],
		['New Matches', 'newMatches'],
		['new_match', 'newMatches'],
		['Change', 'statusChanges'],
		['Status Change', 'statusChanges'],
		['STATUS CHANGES', 'statusChanges'],
		['Price Drop', undefined],
		['', undefined],
		[1, undefined],
		[undefined, undefined],
	])('TriggerType %j is %s', (triggerType, event) => {
		expect(eventOfTriggerType(triggerType)).toBe(event);
	});

	test('the field labels of Change1..Change3, lower case, nothing else', () => {
		expect(
			changesOf({
				TriggerType: 'Change',
				Change1: 'Listing Status:Active:Pending',
				Change2: ' Foreclosure Stage :NOD:Auction',
				Change3: '',
				Changes: 'x:y:z',
				Other: 'Price:1:2',
			}).map((change) => change.label),
		).toEqual(['listing status', 'foreclosure stage']);
	});

	test.each<[string, ChangeKind]>([
		['Last Sale Date', 'newTransfer'],
		['Deed Type', 'newTransfer'],
		['Mortgage Amount', 'newLoan'],
		['Listing Date', 'newListing'],
		['Listing Status', 'listingStatus'],
		['List Price', 'listingPrice'],
		['Listing Price', 'listingPrice'],
		['Auction Date', 'newForeclosure'],
		['Foreclosure Stage', 'foreclosureStatus'],
	])(
		'a change of "%s" is of the kind %s, and of no other kind of the same subject',
		(label, kind) => {
			const event = { TriggerType: 'Change', Change1: `${label}:old:new` };
			expect(wanted(event, { events: ['statusChanges'], changeKinds: [kind] })).toBe(true);
			const others = (Object.keys(CHANGE_KINDS) as ChangeKind[]).filter(
				(other) => other !== kind && CHANGE_KINDS[other].matches(label.toLowerCase()),
			);
			expect(others).toEqual([]);
		},
	);

	test('an event is wanted when its kind is chosen; a change when it is of a chosen kind, or any kind when none is chosen', () => {
		const newMatch = { TriggerType: 'New Match' };
		const priceChange = { TriggerType: 'Change', Change1: 'Listing Price:100:90' };
		expect(wanted(newMatch, { events: ['newMatches'], changeKinds: ['listingStatus'] })).toBe(true);
		expect(wanted(newMatch, { events: ['statusChanges'], changeKinds: [] })).toBe(false);
		expect(wanted(priceChange, { events: ['newMatches'], changeKinds: [] })).toBe(false);
		expect(wanted(priceChange, { events: ['statusChanges'], changeKinds: [] })).toBe(true);
		expect(
			wanted(priceChange, {
				events: ['statusChanges'],
				changeKinds: ['listingStatus', 'listingPrice'],
			}),
		).toBe(true);
		expect(wanted(priceChange, { events: ['statusChanges'], changeKinds: ['listingStatus'] })).toBe(
			false,
		);
		expect(
			wanted(
				{ TriggerType: 'Change' },
				{ events: ['statusChanges'], changeKinds: ['listingStatus'] },
			),
		).toBe(false);
		expect(
			wanted(
				{ TriggerType: 'Price Drop' },
				{ events: ['newMatches', 'statusChanges'], changeKinds: [] },
			),
		).toBe(false);
	});
});

describe('the redelivery window', () => {
	const a = { TriggerType: 'New Match', PropID: 'P000001' };
	const b = { TriggerType: 'New Match', PropID: 'P000002' };
	/** Admits `events` and settles them as started, as after n8n's 200. */
	const started = (
		window: RedeliveryWindow,
		key: string,
		events: IDataObject[],
		windowMs: number,
		now: number,
	) => {
		const admission = window.admit(key, events, windowMs, now);
		if ('fresh' in admission) window.settle(key, admission.fresh, true);
		return admission;
	};

	test('the same event again within the window is dropped once its execution started, after it admitted again', () => {
		const window = new RedeliveryWindow();
		expect(started(window, 'wf/node/7', [a, b], 1_000, 0)).toEqual({ fresh: [a, b] });
		expect(
			started(
				window,
				'wf/node/7',
				[{ PropID: 'P000001', TriggerType: 'New Match' }, b],
				1_000,
				999,
			),
		).toEqual({ fresh: [{ PropID: 'P000001', TriggerType: 'New Match' }] });
		expect(window.admit('wf/node/7', [b], 1_000, 999)).toEqual({ fresh: [] });
		expect(window.admit('wf/node/7', [b], 1_000, 1_000)).toEqual({ fresh: [b] });
	});

	test('an event twice in one delivery is admitted once', () => {
		expect(new RedeliveryWindow().admit('k', [a, { ...a }], 1_000, 0)).toEqual({ fresh: [a] });
	});

	test('a window of 0 admits everything and remembers nothing', () => {
		const window = new RedeliveryWindow();
		expect(window.admit('k', [a, a], 0, 0)).toEqual({ fresh: [a, a] });
		expect(window.admit('k', [a], 1_000, 1)).toEqual({ fresh: [a] });
	});

	test('each registration has its own memory, and forgetting one leaves the others', () => {
		const window = new RedeliveryWindow();
		started(window, 'first', [a], 1_000, 0);
		started(window, 'second', [a], 1_000, 0);
		window.forget('first');
		expect(window.admit('first', [a], 1_000, 1)).toEqual({ fresh: [a] });
		expect(window.admit('second', [a], 1_000, 1)).toEqual({ fresh: [] });
	});

	test('while n8n has not answered the delivery that admitted an event, a delivery with it is unsettled and admits nothing', () => {
		const window = new RedeliveryWindow();
		window.admit('k', [a], 1_000, 0);
		expect(window.admit('k', [b, { ...a }], 1_000, 1)).toEqual({ unsettled: true });
		expect(window.admit('k', [b], 1_000, 2)).toEqual({ fresh: [b] });
		window.settle('k', [a], true);
		expect(window.admit('k', [a], 1_000, 3)).toEqual({ fresh: [] });
	});

	test('events n8n did not start are admitted again; the others of the registration stay remembered', () => {
		const window = new RedeliveryWindow();
		window.admit('k', [a, b], 1_000, 0);
		window.settle('k', [{ ...a }], false);
		window.settle('k', [b], true);
		window.settle('other', [b], false);
		expect(window.admit('k', [a, b], 1_000, 1)).toEqual({ fresh: [a] });
	});

	test(`an answer not come within ${ANSWER_WAIT_MS / 1000} s is taken as the execution started`, () => {
		const window = new RedeliveryWindow();
		window.admit('k', [a], 600_000, 0);
		expect(window.admit('k', [a], 600_000, ANSWER_WAIT_MS - 1)).toEqual({ unsettled: true });
		expect(window.admit('k', [a], 600_000, ANSWER_WAIT_MS)).toEqual({ fresh: [] });
	});

	test('it is bounded: past 10,000 remembered events the oldest is forgotten first', () => {
		const window = new RedeliveryWindow();
		const events = Array.from({ length: 10_001 }, (_, index) => ({
			TriggerType: 'New Match',
			PropID: `P${index}`,
		}));
		expect((started(window, 'k', events, 60_000, 0) as { fresh: unknown[] }).fresh).toHaveLength(
			10_001,
		);
		expect(window.admit('k', [events[10_000], events[1]], 60_000, 1)).toEqual({ fresh: [] });
		expect(window.admit('k', [events[0]], 60_000, 1)).toEqual({ fresh: [events[0]] });
	});

	test('a registration is known by workflow, node and webhook', () => {
		expect(redeliveryKey('wf-1', 'node-1', 7)).toBe('wf-1/node-1/7');
		expect(redeliveryKey(undefined, 'node-1', 7)).toBe('/node-1/7');
	});
});
