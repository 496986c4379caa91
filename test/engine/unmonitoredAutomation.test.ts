import type { NodeRun } from '../support/harness';
import { api, createList, listRef, run, useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();

const hints = (result: NodeRun) =>
	(result.run.data.resultData.runData.PropRadar[0].hints ?? []).map((hint) => hint.message);
const monitored = async (listId: number) =>
	(
		await api<{ results: Array<{ isMonitored: number }> }>(
			sb,
			'GET',
			`/v1/lists/${listId}?Fields=isMonitored`,
		)
	).body.results[0].isMonitored;
const writes = (listId: number) => [
	...sb.sent(`/v1/lists/${listId}`, 'PATCH'),
	...sb.sent(`/v1/lists/${listId}/automations`, 'PUT'),
];
const configure = (listId: number, automation: object, extra: object = {}) =>
	run(sb, {
		resource: 'automation',
		operation: 'configure',
		listId: listRef(listId),
		configureMode: 'update',
		automation,
		...extra,
	});

describe('Automation > Configure on an unmonitored list', () => {
	test('an enabled automation is refused with nothing changed, saying why and how to switch monitoring on', async () => {
		const listId = await createList(sb, { listName: 'quiet', listType: 'static' });
		const result = await configure(listId, {
			isEnabled: true,
			Triggers: 'New Matches',
			SetInterestLevel: 5,
		});
		expect(result.error?.message).toBe(
			`List ${listId} is not monitored, so its automation would never fire`,
		);
		expect(result.error?.description).toContain(
			'Nothing was changed (the automation was not written). Automations only run on monitored lists. Turn on the option "Turn On Monitoring"',
		);
		expect(writes(listId)).toHaveLength(0);
	});

	test('with Turn On Monitoring, monitoring is switched on and the automation fires', async () => {
		const listId = await createList(sb, { listName: 'wake up', listType: 'static' });
		const result = await configure(
			listId,
			{ isEnabled: true, Triggers: 'New Matches', SetInterestLevel: 5 },
			{ turnOnMonitoring: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			ListID: listId,
			isEnabled: 1,
			monitoringTurnedOn: true,
		});
		expect(await monitored(listId)).toBe(1);
		await api(sb, 'PUT', `/v1/lists/${listId}/items`, {
			Criteria: [{ name: 'PropID', value: ['P000777'] }],
		});
		const { body } = await api<{ results: Array<{ InterestLevel: number }> }>(
			sb,
			'GET',
			'/v1/properties/P000777?Purchase=1&Fields=InterestLevel',
		);
		expect(body.results[0].InterestLevel).toBe(5);
	});

	test('the Allow Charging Automation check still comes first', async () => {
		const listId = await createList(sb, { listName: 'buys', listType: 'static' });
		const result = await configure(
			listId,
			{ isEnabled: true, Triggers: 'New Matches', PurchasePhone: true },
			{ turnOnMonitoring: true },
		);
		expect(result.error?.message).toBe(
			`The automation of list ${listId} would buy: turn on "Allow Charging Automation" to configure it`,
		);
		expect(writes(listId)).toHaveLength(0);
		expect(await monitored(listId)).toBe(0);
	});

	test('a configuration that fires on nothing is written with a warning: switched off, or enabled without Triggers', async () => {
		const off = await createList(sb, { listName: 'off', listType: 'static' });
		const switchedOff = await configure(off, {
			isEnabled: false,
			AddToLists: [],
			SetInterestLevel: 3,
		});
		expect(switchedOff.error).toBeUndefined();
		expect(hints(switchedOff)).toEqual([
			`Item at index 0: the automation of list ${off} is written switched off (Automation Enabled is off), so it fires on nothing.`,
		]);

		const on = await createList(sb, {
			listName: 'no triggers',
			listType: 'static',
			isMonitored: true,
		});
		const noTriggers = await run(sb, {
			resource: 'automation',
			operation: 'configure',
			listId: listRef(on),
			configureMode: 'replace',
			automation: { isEnabled: true, SetInterestLevel: 2 },
		});
		expect(noTriggers.error).toBeUndefined();
		expect(hints(noTriggers)).toEqual([
			`Item at index 0: the automation of list ${on} is enabled with nothing to fire on, so it fires on nothing: set Fires On (New Matches, Status Changes or both).`,
		]);

		const fine = await configure(on, { Triggers: 'New Matches' });
		expect(hints(fine)).toEqual([]);
	});
});

describe('Webhook > Create with Lists on an unmonitored list', () => {
	const create = (lists: number[], extra: object = {}) =>
		run(sb, {
			resource: 'webhook',
			operation: 'create',
			hookUrl: 'https://example.com/hook',
			webhookName: 'crm',
			lists,
			...extra,
		});

	test('refused with no webhook created; with Turn On Monitoring the lists are switched on and wired', async () => {
		const quiet = await createList(sb, { listName: 'quiet hook', listType: 'static' });
		const loud = await createList(sb, {
			listName: 'loud hook',
			listType: 'static',
			isMonitored: true,
		});
		const posts = sb.sent('/v1/integrations/webhooks', 'POST').length;
		const refused = await create([loud, quiet]);
		expect(refused.error?.message).toBe(
			`List ${quiet} is not monitored, so its automation would never fire`,
		);
		expect(refused.error?.description).toContain('Nothing was changed (no webhook was created)');
		expect(sb.sent('/v1/integrations/webhooks', 'POST')).toHaveLength(posts);

		const created = await create([loud, quiet], { turnOnMonitoring: true });
		expect(created.error).toBeUndefined();
		expect(created.json[0]).toMatchObject({ Lists: [loud, quiet], monitoringTurnedOn: [quiet] });
		expect(await monitored(quiet)).toBe(1);
		expect(sb.sent(`/v1/lists/${loud}`, 'PATCH')).toHaveLength(0);
	});

	test('a webhook with no Lists is created with a warning that nothing calls it yet', async () => {
		const result = await create([]);
		expect(result.error).toBeUndefined();
		expect(hints(result)).toEqual([
			'Item at index 0: webhook "crm" is registered, but no list exports to it, so it is called on nothing: give Lists, or add it to a list\'s automation (Automation > Configure, Then Export to Webhooks).',
		]);
	});
});
