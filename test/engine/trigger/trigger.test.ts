import { TOKENS } from '../../support/harness';
import { api } from '../../support/helpers';
import {
	automationOf,
	createMonitoredList,
	postDelivery,
	serviceSecret,
	setAutomation,
	TriggerWorkflow,
	useTriggerSandbox,
	webhooksOf,
} from '../../support/triggerHarness';

// A bound against a hung run on a busy machine, not a speed assertion.
jest.setTimeout(30_000);

const { sb, receiver, trigger } = useTriggerSandbox();

const bearer = async (wf: TriggerWorkflow) => `Bearer ${await serviceSecret(sb, wf)}`;

describe('registration through HookContext', () => {
	test('create registers a webhook with a fresh secret and wires it; checkExists sees it; delete restores the automation', async () => {
		const listId = await createMonitoredList(sb, 'Trigger lifecycle');
		const before = await automationOf(sb, listId);
		const wf = trigger(listId);

		expect(await wf.hook('checkExists')).toBe(false);
		expect(await wf.hook('create')).toBe(true);

		const webhookId = wf.registration().webhookId!;
		expect(wf.registration().secretSalt).toMatch(/^[0-9a-f]{64}$/);
		const remote = (await webhooksOf(sb)).filter((hook) => hook.HookUrl === wf.url());
		expect(remote).toHaveLength(1);
		expect(remote[0].WebhookID).toBe(webhookId);
		expect(remote[0].WebhookName).toBe(`n8n PropRadar Trigger ${listId}: N, was off -`);
		expect(remote[0].Secret).toMatch(/^[0-9a-f]{64}$/);
		expect(JSON.stringify(wf.workflow.staticData)).not.toContain(String(remote[0].Secret));

		const wired = await automationOf(sb, listId);
		expect(wired).toEqual({
			...before,
			isEnabled: 1,
			Triggers: 'New Matches',
			ExportToWebhookIDs: String(webhookId),
		});

		expect(await wf.hook('checkExists')).toBe(true);
		expect(await wf.hook('delete')).toBe(true);
		expect(await automationOf(sb, listId)).toEqual(before);
		expect((await webhooksOf(sb)).filter((hook) => hook.WebhookID === webhookId)).toHaveLength(0);
		expect(wf.registration().webhookId).toBeUndefined();
		expect(wf.registration().secretSalt).toBeUndefined();
		expect(await wf.hook('checkExists')).toBe(false);
	});

	test('keeps every other automation field and webhook, and restores them exactly', async () => {
		const listId = await createMonitoredList(sb, 'Trigger keeps others');
		const otherList = await createMonitoredList(sb, 'Trigger other list');
		const foreign = await postWebhook('http://127.0.0.1:9/crm', 'CRM export');
		await setAutomation(sb, listId, {
			isEnabled: 1,
			Triggers: 'Status Changes',
			ExportToWebhookIDs: String(foreign),
			SetInterestLevel: 3,
			SetStatusLevel: 2,
			AddToLists: String(otherList),
		});
		const before = await automationOf(sb, listId);
		const wf = trigger(listId, { events: ['newMatches'] });
		await wf.activate();
		const webhookId = wf.registration().webhookId!;

		expect(await automationOf(sb, listId)).toEqual({
			...before,
			Triggers: 'New Matches,Status Changes',
			ExportToWebhookIDs: `${foreign},${webhookId}`,
		});
		await wf.deactivate();
		expect(await automationOf(sb, listId)).toEqual(before);
		expect((await webhooksOf(sb)).map((hook) => hook.WebhookID)).toContain(foreign);
	});

	test("a webhook removed or unwired behind n8n's back is registered again, without duplicates", async () => {
		const listId = await createMonitoredList(sb, 'Trigger repair');
		const before = await automationOf(sb, listId);
		const wf = trigger(listId);
		await wf.activate();
		const first = wf.registration().webhookId!;

		// Deleted in PropRadar: n8n's restart finds it gone and creates it again.
		await deleteWebhook(first);
		expect(await wf.hook('checkExists')).toBe(false);
		await wf.activate();
		const second = wf.registration().webhookId!;
		expect(second).not.toBe(first);
		expect((await webhooksOf(sb)).filter((hook) => hook.HookUrl === wf.url())).toHaveLength(1);

		// Unwired by a user: the old webhook is removed, a new one wired.
		await setAutomation(sb, listId, { ExportToWebhookIDs: '' });
		expect(await wf.hook('checkExists')).toBe(false);
		await wf.activate();
		const third = wf.registration().webhookId!;
		const remote = (await webhooksOf(sb)).filter((hook) => hook.HookUrl === wf.url());
		expect(remote.map((hook) => hook.WebhookID)).toEqual([third]);
		expect((await automationOf(sb, listId)).ExportToWebhookIDs).toBe(String(third));

		await wf.deactivate();
		expect((await webhooksOf(sb)).filter((hook) => hook.HookUrl === wf.url())).toHaveLength(0);
		expect({ ...(await automationOf(sb, listId)), ExportToWebhookIDs: '' }).toEqual({
			...before,
			ExportToWebhookIDs: '',
		});
	});

	test('delete tolerates a webhook and a wiring that are already gone', async () => {
		const listId = await createMonitoredList(sb, 'Trigger already gone');
		const wf = trigger(listId);
		await wf.activate();
		await deleteWebhook(wf.registration().webhookId!);
		await expect(wf.deactivate()).resolves.toBeUndefined();
		expect(wf.registration().webhookId).toBeUndefined();

		// The list itself deleted while the workflow was active: the webhook still goes.
		const gone = await createMonitoredList(sb, 'Trigger list deleted');
		const orphaned = trigger(gone);
		await orphaned.activate();
		const webhookId = orphaned.registration().webhookId!;
		expect((await api(sb, 'DELETE', `/v1/lists/${gone}`)).status).toBe(200);
		await expect(orphaned.deactivate()).resolves.toBeUndefined();
		expect((await webhooksOf(sb)).filter((hook) => hook.WebhookID === webhookId)).toEqual([]);
	});

	test('refuses, with nothing registered, when the automation would start charging', async () => {
		const listId = await createMonitoredList(sb, 'Trigger charging');
		await setAutomation(sb, listId, { isEnabled: 0, PurchasePhone: 1 });
		const before = await automationOf(sb, listId);
		const webhooksBefore = await webhooksOf(sb);
		const posts = sb.sent('/v1/integrations/webhooks', 'POST').length;

		const wf = trigger(listId);
		await expect(wf.activate()).rejects.toThrow(/would buy phone numbers \(PurchasePhone\)/);
		expect(sb.sent('/v1/integrations/webhooks', 'POST')).toHaveLength(posts);
		expect(await webhooksOf(sb)).toEqual(webhooksBefore);
		expect(await automationOf(sb, listId)).toEqual(before);
		expect(wf.registration().webhookId).toBeUndefined();

		const allowed = trigger(listId, {
			events: ['newMatches'],
			options: { allowChargingAutomation: true },
		});
		await allowed.activate();
		expect((await automationOf(sb, listId)).isEnabled).toBe(1);
		await allowed.deactivate();
		expect(await automationOf(sb, listId)).toEqual(before);
	});

	test('on an enabled charging automation, only a trigger that adds an event needs the option', async () => {
		const listId = await createMonitoredList(sb, 'Trigger charging enabled');
		await setAutomation(sb, listId, {
			isEnabled: 1,
			Triggers: 'New Matches',
			PurchaseEmail: 1,
			DirectMailOrderID: 'DM-7',
		});
		const before = await automationOf(sb, listId);

		const adding = trigger(listId, { events: ['newMatches', 'statusChanges'] });
		await expect(adding.activate()).rejects.toThrow(
			/would buy e-mail addresses \(PurchaseEmail\), add properties to direct-mail order DM-7/,
		);
		expect(await automationOf(sb, listId)).toEqual(before);

		const same = trigger(listId, { events: ['newMatches'] });
		await same.activate();
		expect((await automationOf(sb, listId)).Triggers).toBe('New Matches');
		await same.deactivate();
		expect(await automationOf(sb, listId)).toEqual(before);
	});

	test('refuses an unmonitored list, and a bad list ID before any request', async () => {
		const response = await api(sb, 'POST', '/v1/lists', {
			ListName: 'Trigger unmonitored',
			ListType: 'static',
			isMonitored: 0,
		});
		const unmonitored = (response.body as { results: Array<{ ListID: number }> }).results[0].ListID;
		await expect(trigger(unmonitored).activate()).rejects.toThrow(/is not monitored/);

		const sent = sb.requests.length;
		await expect(trigger(0).hook('create')).rejects.toThrow(/^List: "0" is not a list ID/);
		await expect(trigger(5, { events: [] }).hook('create')).rejects.toThrow(
			/^Events: choose New Matches, Status Changes or both/,
		);
		expect(sb.requests.length).toBe(sent);
	});

	test('a refused wiring leaves no webhook behind and the secret in no error', async () => {
		const listId = await createMonitoredList(sb, 'Trigger wiring fails');
		const before = await webhooksOf(sb);
		sb.faults.push({
			method: 'PUT',
			pathPrefix: `/v1/lists/${listId}/automations`,
			count: 1,
			status: 400,
			body: { error: 'Invalid automation', eventid: 'tst-put-400' },
		});
		const wf = trigger(listId);
		let error: Error | undefined;
		await wf.activate().catch((caught: Error) => (error = caught));
		expect(error?.message).toMatch(/^PropRadar refused the request (for list \d+ )?as invalid/);
		const secret = JSON.parse(sb.sent('/v1/integrations/webhooks', 'POST').at(-1)!.body)
			.Secret as string;
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(
			JSON.stringify({ ...error, message: error?.message, stack: error?.stack }),
		).not.toContain(secret);
		expect(await webhooksOf(sb)).toEqual(before);
		expect(wf.registration().webhookId).toBeUndefined();
	});

	test.each([
		['POST', '/v1/integrations/webhooks'],
		['GET', '/v1/lists/{list}/automations'],
		['PUT', '/v1/lists/{list}/automations'],
	])(
		'a server that echoes the request on %s %s: neither the token nor the webhook secret is in the activation error',
		async (method, path) => {
			const listId = await createMonitoredList(sb, `Trigger echo ${method}`);
			sb.faults.push({
				method,
				pathPrefix: path.replace('{list}', String(listId)),
				count: 20,
				echo: true,
				status: 400,
			});
			let error: Error | undefined;
			await trigger(listId)
				.activate()
				.catch((caught: Error) => (error = caught));
			expect(error).toBeDefined();
			const secrets = [
				TOKENS.main,
				...sb
					.sent('/v1/integrations/webhooks', 'POST')
					.map((request) => String(JSON.parse(request.body).Secret)),
			];
			const shown = JSON.stringify({ ...error, message: error?.message, stack: error?.stack });
			expect(secrets.filter((secret) => shown.includes(secret))).toEqual([]);
			sb.faults.length = 0;
		},
	);

	test('a passing 503 or dropped connection on the automation write is retried; the webhook is registered once', async () => {
		const listId = await createMonitoredList(sb, 'Trigger wiring retried');
		const posts = sb.sent('/v1/integrations/webhooks', 'POST').length;
		sb.faults.push({
			method: 'PUT',
			pathPrefix: `/v1/lists/${listId}/automations`,
			count: 1,
			status: 503,
		});
		sb.faults.push({
			method: 'PUT',
			pathPrefix: `/v1/lists/${listId}/automations`,
			count: 1,
			drop: true,
		});
		const wf = trigger(listId);
		await wf.activate();
		expect(sb.sent('/v1/integrations/webhooks', 'POST')).toHaveLength(posts + 1);
		expect(sb.sent(`/v1/lists/${listId}/automations`, 'PUT')).toHaveLength(3);
		expect((await automationOf(sb, listId)).ExportToWebhookIDs).toBe(
			String(wf.registration().webhookId),
		);
		await wf.deactivate();
	});
});

describe('deliveries through webhook()', () => {
	let listId: number;
	let wf: TriggerWorkflow;

	beforeAll(async () => {
		listId = await createMonitoredList(sb, 'Trigger deliveries');
		wf = trigger(listId, {
			events: ['newMatches', 'statusChanges'],
			options: { changeKinds: ['listingStatus'] },
		});
		await wf.activate();
	});

	afterAll(async () => {
		await wf.deactivate();
	});

	const newMatch = (propId: string) => ({
		TriggerType: 'New Match',
		PropID: propId,
		ListID: 1,
		ListName: 'x',
		City: 'Portland',
	});
	const change = (propId: string, change1: string) => ({
		TriggerType: 'Change',
		PropID: propId,
		ListID: 1,
		Change1: change1,
	});

	test('forged deliveries start no execution', async () => {
		const secret = await serviceSecret(sb, wf);
		const sameLength = secret.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
		const body = newMatch('P000001');
		const forgeries: Array<[string | undefined, number]> = [
			[undefined, 401],
			['', 401],
			['Bearer', 401],
			[`Bearer ${sameLength}`, 401],
			[`Bearer ${secret.slice(0, 10)}`, 401],
			[`Bearer ${secret}${secret}`, 401],
			[`Basic ${secret}`, 401],
			[secret, 401],
		];
		for (const [authorization, status] of forgeries) {
			const seen = receiver.deliveriesOf(wf.id).length;
			const answer = await postDelivery(wf.url(), body, authorization);
			expect(answer.status).toBe(status);
			expect(answer.text).not.toContain(secret);
			const delivery = receiver.deliveriesOf(wf.id)[seen];
			expect(delivery.status).toBe(status);
			expect(delivery.items).toBeUndefined();
		}
	});

	test('malformed bodies with the right secret answer 400 and start no execution', async () => {
		const bodies = [
			'{"TriggerType": "New Match",',
			'42',
			'"text"',
			'null',
			'[1, 2]',
			'[{"TriggerType": "New Match"}, "x"]',
			'{}',
		];
		for (const body of bodies) {
			const seen = receiver.deliveriesOf(wf.id).length;
			const answer = await postDelivery(wf.url(), body, await bearer(wf));
			expect({ body, status: answer.status }).toEqual({ body, status: 400 });
			expect(receiver.deliveriesOf(wf.id)[seen].items).toBeUndefined();
		}
	});

	test('one item per property from an object or an array; only the chosen events and change kinds', async () => {
		const one = await postDelivery(wf.url(), newMatch('P000101'), await bearer(wf));
		expect(one.status).toBe(200);
		expect(receiver.deliveriesOf(wf.id).at(-1)!.items).toEqual([newMatch('P000101')]);

		const batch = [
			newMatch('P000102'),
			change('P000103', 'Listing Status:Active:Expired'),
			change('P000104', 'Listing Price:100000:90000'),
			{ TriggerType: 'Something Else', PropID: 'P000105' },
			{ TriggerType: 'New Matches', PropID: 'P000106' },
			{ TriggerType: 'status change', PropID: 'P000107', Change1: 'Listing Status:Pending:Sold' },
		];
		await postDelivery(wf.url(), batch, await bearer(wf));
		expect(receiver.deliveriesOf(wf.id).at(-1)!.items).toEqual([
			batch[0],
			batch[1],
			batch[4],
			batch[5],
		]);

		const onlyFiltered = await postDelivery(
			wf.url(),
			[change('P000106', 'Listing Price:1:2')],
			await bearer(wf),
		);
		expect(onlyFiltered.status).toBe(200);
		expect(receiver.deliveriesOf(wf.id).at(-1)!.items).toBeUndefined();
	});

	test('a redelivery of the same event within the window starts nothing', async () => {
		const event = newMatch('P000201');
		await postDelivery(wf.url(), event, await bearer(wf));
		expect(receiver.deliveriesOf(wf.id).at(-1)!.items).toEqual([event]);
		await postDelivery(wf.url(), event, await bearer(wf));
		expect(receiver.deliveriesOf(wf.id).at(-1)!.items).toBeUndefined();
		await postDelivery(wf.url(), [event, newMatch('P000202')], await bearer(wf));
		expect(receiver.deliveriesOf(wf.id).at(-1)!.items).toEqual([newMatch('P000202')]);
	});

	test('New Matches only: a Status Change delivery starts nothing; split off gives one item per delivery; window 0 keeps repeats', async () => {
		const other = trigger(listId, {
			events: ['newMatches'],
			options: { splitIntoItems: false, redeliveryWindowSeconds: 0 },
		});
		await other.activate();
		try {
			await postDelivery(
				other.url(),
				change('P000301', 'Listing Status:Active:Sold'),
				await bearer(other),
			);
			expect(receiver.deliveriesOf(other.id).at(-1)!.items).toBeUndefined();
			const batch = [newMatch('P000302'), newMatch('P000303')];
			await postDelivery(other.url(), batch, await bearer(other));
			await postDelivery(other.url(), batch, await bearer(other));
			const [first, second] = receiver.deliveriesOf(other.id).slice(-2);
			expect(first.items).toEqual([{ events: batch }]);
			expect(second.items).toEqual([{ events: batch }]);
		} finally {
			await other.deactivate();
		}
	});

	test('after deactivation the old secret opens nothing', async () => {
		const once = trigger(listId);
		await once.activate();
		const oldAuthorization = await bearer(once);
		await once.deactivate();
		receiver.listen(once.path(), { trigger: once, test: false });
		const answer = await postDelivery(once.url(), newMatch('P000401'), oldAuthorization);
		receiver.stopListening(once.path());
		expect(answer.status).toBe(503);
		expect(receiver.deliveriesOf(once.id).at(-1)!.items).toBeUndefined();
	});

	test('a delivery before n8n has stored the registration is answered 503 with Retry-After (the service delivers again), and starts nothing', async () => {
		const early = trigger(listId);
		receiver.listen(early.path(), { trigger: early, test: false });
		try {
			const response = await fetch(early.url(), {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: 'Bearer 0123' },
				body: JSON.stringify(newMatch('P000501')),
			});
			expect(response.status).toBe(503);
			expect(response.headers.get('retry-after')).toBe('2');
			expect(receiver.deliveriesOf(early.id).at(-1)!.items).toBeUndefined();
		} finally {
			receiver.stopListening(early.path());
		}
	});
});

async function postWebhook(hookUrl: string, name: string): Promise<number> {
	const response = await api(sb, 'POST', '/v1/integrations/webhooks', {
		HookUrl: hookUrl,
		WebhookName: name,
	});
	return (response.body as { results: Array<{ WebhookID: number }> }).results[0].WebhookID;
}

async function deleteWebhook(webhookId: number): Promise<void> {
	const response = await api(sb, 'DELETE', `/v1/integrations/webhooks/${webhookId}`);
	expect(response.status).toBe(200);
}
