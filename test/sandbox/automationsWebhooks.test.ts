/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { AUTOMATION_FIELDS } from '../support/apiDocuments';
import { expectError, TOKENS, useSandbox, type Json } from './helpers';

const sb = useSandbox();

interface Received {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: Json;
}

/** A webhook receiver on 127.0.0.1 that records what it gets; `statuses` are answered in turn, then 200. */
class Receiver {
	readonly received: Received[] = [];
	statuses: number[] = [];
	private server?: Server;

	async start(): Promise<void> {
		this.server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				this.received.push({
					method: request.method ?? '',
					url: request.url ?? '',
					headers: request.headers,
					body: text ? JSON.parse(text) : undefined,
				});
				response.statusCode = this.statuses.shift() ?? 200;
				response.end('{}');
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
	}

	get url(): string {
		return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
	}

	async stop(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}
}

let receiver: Receiver;
beforeEach(async () => {
	receiver = new Receiver();
	await receiver.start();
});
afterEach(() => receiver.stop());

const control = (path: string, body?: unknown) => sb.ok('POST', path, { token: null, body });
const automationOf = async (listId: number) =>
	(await sb.ok('GET', `/v1/lists/${listId}/automations`)).results[0];
const deliveries = async (listId: number) =>
	(await sb.ok('GET', '/_sandbox/deliveries?wait=1', { token: null })).results.filter(
		(entry: Json) => entry.ListID === listId,
	);
const byPropIds = (ids: string[]) => ({ Criteria: [{ name: 'PropID', value: ids }] });

describe('automations', () => {
	test('GET returns results[0] with Name (the list name) and every automation field', async () => {
		const listId = await sb.createList({ ListName: 'Automated', ListType: 'static' });
		const body = await sb.ok('GET', `/v1/lists/${listId}/automations`);
		expect(body.results).toHaveLength(1);
		expect(body.results[0].Name).toBe('Automated');
		expect(Object.keys(body.results[0]).sort()).toEqual(['Name', ...AUTOMATION_FIELDS].sort());
	});

	test('PUT answers updateCount and replaces the whole configuration', async () => {
		const listId = await sb.createList({ ListName: 'Automated', ListType: 'static' });
		const other = await sb.createList({ ListName: 'Target', ListType: 'static' });
		const first = {
			isEnabled: 1,
			Triggers: 'New Matches,Status Changes',
			SetInterestLevel: 3,
			SetStatusLevel: 9,
			AddToLists: String(other),
			ImmediateEmailMemberIDs: 'M101,M102',
			DirectMailOrderID: 'DM-7',
		};
		expect(await sb.ok('PUT', `/v1/lists/${listId}/automations`, { body: first })).toEqual({
			updateCount: 1,
		});
		expect(await automationOf(listId)).toMatchObject(first);

		expect(
			await sb.ok('PUT', `/v1/lists/${listId}/automations`, {
				body: { isEnabled: 1, Triggers: 'Status Changes' },
			}),
		).toEqual({ updateCount: 1 });
		expect(await automationOf(listId)).toMatchObject({
			isEnabled: 1,
			Triggers: 'Status Changes',
			SetInterestLevel: null,
			SetStatusLevel: null,
			AddToLists: '',
			ImmediateEmailMemberIDs: '',
			DirectMailOrderID: '',
		});
	});

	test('400 for invalid configurations; the stored configuration is unchanged', async () => {
		const listId = await sb.createList({ ListName: 'Automated', ListType: 'static' });
		const stored = { isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 2 };
		await sb.ok('PUT', `/v1/lists/${listId}/automations`, { body: stored });
		const refused = [
			{ isEnabled: 1, Triggers: 'New Matches', AddToLists: `${listId + 100},${listId}` },
			{ isEnabled: 1, Triggers: 'New Matches', RemoveFromLists: String(listId) },
			{ isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 6 },
			{ isEnabled: 1, Triggers: 'New Matches', SetStatusLevel: 10 },
			{ isEnabled: 1, Triggers: 'Sometimes' },
			{ isEnabled: 1, Triggers: 'Status Changes,New Matches,Deletions' },
			{ isEnabled: 2, Triggers: 'New Matches' },
			{ isEnabled: 1, PurchasePhone: 'yes' },
			{ isEnabled: 1, ImmediateEmailMemberIDs: ['M101'] },
			{ Name: 'Automated', isEnabled: 1 },
			{},
		];
		for (const body of refused) {
			const answer = await sb.api('PUT', `/v1/lists/${listId}/automations`, { body });
			expect({ body, status: answer.status }).toEqual({ body, status: 400 });
			expectError(answer, 400);
		}
		expect(await automationOf(listId)).toMatchObject(stored);
	});

	test('when it fires: levels set, properties added to and removed from other lists, e-mails and orders in the outbox', async () => {
		const listId = await sb.createList({ ListName: 'Source', ListType: 'static', isMonitored: 1 });
		const addTo = await sb.createList({ ListName: 'Add here', ListType: 'static' });
		const removeFrom = await sb.createList({ ListName: 'Remove here', ListType: 'static' });
		await sb.ok('PUT', `/v1/lists/${removeFrom}/items`, {
			body: byPropIds(['P000071', 'P000079']),
		});
		await sb.ok('PUT', `/v1/lists/${listId}/automations`, {
			body: {
				isEnabled: 1,
				Triggers: 'New Matches',
				SetInterestLevel: 4,
				SetStatusLevel: 2,
				AddToLists: String(addTo),
				RemoveFromLists: String(removeFrom),
				DailyEmailMemberIDs: 'M101',
				DirectMailOrderID: 'DM-1',
			},
		});

		await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(['P000071', 'P000072']) });

		const starred = await sb.ok('GET', `/v1/lists/${listId}/items?InterestLevel=4&StatusLevel=2`);
		expect(starred.results.map((item: Json) => item.PropID)).toEqual(['P000071', 'P000072']);
		expect(
			(await sb.ok('GET', `/v1/lists/${addTo}/items`)).results.map((item: Json) => item.PropID),
		).toEqual(['P000071', 'P000072']);
		expect(
			(await sb.ok('GET', `/v1/lists/${removeFrom}/items`)).results.map(
				(item: Json) => item.PropID,
			),
		).toEqual(['P000079']);
		const property = (
			await sb.ok('GET', '/v1/properties/P000072?Purchase=1&Fields=InterestLevel,StatusLevel')
		).results[0];
		expect(property).toMatchObject({ InterestLevel: 4, StatusLevel: 2 });

		const outbox = (await sb.ok('GET', '/_sandbox/outbox', { token: null })).results.filter(
			(entry: Json) => entry.ListID === listId,
		);
		for (const propId of ['P000071', 'P000072']) {
			expect(outbox).toContainEqual(
				expect.objectContaining({ PropID: propId, action: 'daily e-mail' }),
			);
			expect(outbox).toContainEqual(
				expect.objectContaining({ PropID: propId, action: 'direct-mail order', detail: 'DM-1' }),
			);
		}
	});

	test('list item filters see what automations saved: InterestLevel 0 is "not starred but with other saved data"', async () => {
		const source = await sb.createList({ ListName: 'Source', ListType: 'static', isMonitored: 1 });
		await sb.ok('PUT', `/v1/lists/${source}/automations`, {
			body: { isEnabled: 1, Triggers: 'New Matches', SetStatusLevel: 5 },
		});
		await sb.ok('PUT', `/v1/lists/${source}/items`, { body: byPropIds(['P000075']) });
		const view = await sb.createList({ ListName: 'View', ListType: 'static' });
		await sb.ok('PUT', `/v1/lists/${view}/items`, { body: byPropIds(['P000075', 'P000076']) });
		const ids = async (query: string) =>
			(await sb.ok('GET', `/v1/lists/${view}/items?${query}`)).results.map(
				(item: Json) => item.PropID,
			);
		expect(await ids('StatusLevel=5')).toEqual(['P000075']);
		expect(await ids('InterestLevel=0')).toEqual(['P000075']);
		expect(await ids('InterestLevel=1,2,3,4,5')).toEqual([]);
		expectError(await sb.api('GET', `/v1/lists/${view}/items?InterestLevel=6`), 400);
		expectError(await sb.api('GET', `/v1/lists/${view}/items?StatusLevel=0`), 400);
	});

	test('SetInterestLevel 0 unsets interest and SetStatusLevel 0 sets status None when the automation fires', async () => {
		const star = await sb.createList({ ListName: 'Star', ListType: 'static', isMonitored: 1 });
		await sb.ok('PUT', `/v1/lists/${star}/automations`, {
			body: { isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 4, SetStatusLevel: 2 },
		});
		await sb.ok('PUT', `/v1/lists/${star}/items`, { body: byPropIds(['P000077']) });
		const levels = async () =>
			(await sb.ok('GET', '/v1/properties/P000077?Purchase=1&Fields=InterestLevel,StatusLevel'))
				.results[0];
		expect(await levels()).toEqual({ InterestLevel: 4, StatusLevel: 2 });

		const clear = await sb.createList({ ListName: 'Clear', ListType: 'static', isMonitored: 1 });
		await sb.ok('PUT', `/v1/lists/${clear}/automations`, {
			body: { isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 0, SetStatusLevel: 0 },
		});
		expect(await automationOf(clear)).toMatchObject({ SetInterestLevel: 0, SetStatusLevel: 0 });
		await sb.ok('PUT', `/v1/lists/${clear}/items`, { body: byPropIds(['P000077']) });
		expect(await levels()).toEqual({ InterestLevel: 0, StatusLevel: 0 });
		const ids = async (query: string) =>
			(await sb.ok('GET', `/v1/lists/${star}/items?${query}`)).results.map(
				(item: Json) => item.PropID,
			);
		expect(await ids('InterestLevel=4')).toEqual([]);
		expect(await ids('StatusLevel=2')).toEqual([]);
		expect(await ids('InterestLevel=0')).toEqual([]);
	});

	test('an automation that sets no level (null, the default) leaves the levels as they are', async () => {
		const star = await sb.createList({ ListName: 'Star', ListType: 'static', isMonitored: 1 });
		expect(await automationOf(star)).toMatchObject({
			SetInterestLevel: null,
			SetStatusLevel: null,
		});
		await sb.ok('PUT', `/v1/lists/${star}/automations`, {
			body: { isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 3, SetStatusLevel: 7 },
		});
		await sb.ok('PUT', `/v1/lists/${star}/items`, { body: byPropIds(['P000078']) });

		const notify = await sb.createList({ ListName: 'Notify', ListType: 'static', isMonitored: 1 });
		await sb.ok('PUT', `/v1/lists/${notify}/automations`, {
			body: {
				isEnabled: 1,
				Triggers: 'New Matches',
				ImmediateEmailMemberIDs: 'M101',
				SetInterestLevel: null,
				SetStatusLevel: null,
			},
		});
		await sb.ok('PUT', `/v1/lists/${notify}/items`, { body: byPropIds(['P000078']) });
		const other = await sb.createList({
			ListName: 'Notify too',
			ListType: 'static',
			isMonitored: 1,
		});
		await sb.ok('PUT', `/v1/lists/${other}/automations`, {
			body: { isEnabled: 1, Triggers: 'New Matches', ImmediateEmailMemberIDs: 'M102' },
		});
		await sb.ok('PUT', `/v1/lists/${other}/items`, { body: byPropIds(['P000078']) });
		expect(
			(await sb.ok('GET', '/v1/properties/P000078?Purchase=1&Fields=InterestLevel,StatusLevel'))
				.results[0],
		).toEqual({ InterestLevel: 3, StatusLevel: 7 });
	});

	/** A property with at least two owners, found through the API, and how many it has. */
	async function propertyWithOwners(): Promise<{ propId: string; owners: number }> {
		for (let index = 81; index < 200; index++) {
			const propId = `P${String(index).padStart(6, '0')}`;
			const quote = await sb.ok('GET', `/v1/properties/${propId}/persons?Purchase=0`);
			if (quote.resultCount >= 2) return { propId, owners: quote.resultCount };
		}
		throw new Error('no property with two owners among P000081..P000199');
	}

	test.each([
		['PurchasePhone', 'automationPhone', 'Phone'],
		['PurchaseEmail', 'automationEmail', 'Email'],
	])(
		"%s charges once per triggered record (not per owner), and every owner's contact is bought",
		async (flag, kind, field) => {
			const { propId, owners } = await propertyWithOwners();
			expect(owners).toBeGreaterThanOrEqual(2);
			const listId = await sb.createList({ ListName: 'Buy', ListType: 'static', isMonitored: 1 });
			await sb.ok('PUT', `/v1/lists/${listId}/automations`, {
				body: { isEnabled: 1, Triggers: 'New Matches', [flag]: 1 },
			});
			const before = await sb.charges();

			await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds([propId, 'P000001']) });
			const after = await sb.charges();
			expect(after.log.slice(before.log.length)).toEqual([
				expect.objectContaining({ kind, quantity: 1, creditsUsed: 1 }),
				expect.objectContaining({ kind, quantity: 1, creditsUsed: 1 }),
			]);
			expect(after.credits).toBe(before.credits - 2);
			const persons = (
				await sb.ok('GET', `/v1/properties/${propId}/persons?Purchase=1&Fields=${field}`)
			).results;
			expect(persons).toHaveLength(owners);
			for (const person of persons) expect(person[field]).toHaveLength(1);
		},
	);
});

describe('webhooks', () => {
	test('POST creates ({results: [{WebhookID}]}), wiring the given lists; GET lists them; DELETE unwires and removes', async () => {
		const listId = await sb.createList({ ListName: 'Hooked', ListType: 'static', isMonitored: 1 });
		const created = await sb.ok('POST', '/v1/integrations/webhooks', {
			body: { HookUrl: receiver.url, WebhookName: 'CRM', Secret: 'hush', Lists: [listId] },
		});
		expect(created).toEqual({ results: [{ WebhookID: expect.any(Number) }] });
		const webhookId = created.results[0].WebhookID;

		expect(await automationOf(listId)).toMatchObject({
			isEnabled: 1,
			ExportToWebhookIDs: String(webhookId),
		});
		const listed = (await sb.ok('GET', '/v1/integrations/webhooks')).results;
		expect(listed).toEqual([
			{
				WebhookID: webhookId,
				HookUrl: receiver.url,
				WebhookName: 'CRM',
				ClientName: expect.any(String),
				Secret: 'hush',
			},
		]);

		expect(await sb.ok('DELETE', `/v1/integrations/webhooks/${webhookId}`)).toEqual({
			deleteCount: 1,
		});
		expect((await sb.ok('GET', '/v1/integrations/webhooks')).results).toEqual([]);
		expect((await automationOf(listId)).ExportToWebhookIDs).toBe('');
		expectError(await sb.api('DELETE', `/v1/integrations/webhooks/${webhookId}`), 404);
	});

	test('GET takes Sort, Dir, Start, Limit and Fields', async () => {
		for (const name of ['b-hook', 'c-hook', 'a-hook'])
			await sb.ok('POST', '/v1/integrations/webhooks', {
				body: { HookUrl: receiver.url, WebhookName: name },
			});
		const names = async (query: string) =>
			(await sb.ok('GET', `/v1/integrations/webhooks${query}`)).results.map(
				(hook: Json) => hook.WebhookName,
			);
		expect(await names('?Sort=WebhookName&Dir=desc')).toEqual(['c-hook', 'b-hook', 'a-hook']);
		expect(await names('?Sort=WebhookName&Start=1&Limit=1')).toEqual(['b-hook']);
		const slim = (await sb.ok('GET', '/v1/integrations/webhooks?Fields=WebhookID,WebhookName'))
			.results;
		for (const hook of slim) expect(Object.keys(hook).sort()).toEqual(['WebhookID', 'WebhookName']);
	});

	test('POST refuses a missing name, a URL that is not http(s), an unknown field and a list that does not exist', async () => {
		const refused = [
			{ HookUrl: receiver.url },
			{ HookUrl: 'ftp://127.0.0.1/x', WebhookName: 'x' },
			{ HookUrl: 'not a url', WebhookName: 'x' },
			{ HookUrl: receiver.url, WebhookName: 'x', Colour: 'red' },
			{ HookUrl: receiver.url, WebhookName: 'x', Lists: [424242] },
		];
		for (const body of refused)
			expectError(await sb.api('POST', '/v1/integrations/webhooks', { body }), 400);
		expect((await sb.ok('GET', '/v1/integrations/webhooks')).results).toEqual([]);
	});

	test('webhooks belong to their account', async () => {
		const { results } = await sb.ok('POST', '/v1/integrations/webhooks', {
			body: { HookUrl: receiver.url, WebhookName: 'mine' },
		});
		expect(
			(await sb.ok('GET', '/v1/integrations/webhooks', { token: TOKENS.second })).results,
		).toEqual([]);
		expectError(
			await sb.api('DELETE', `/v1/integrations/webhooks/${results[0].WebhookID}`, {
				token: TOKENS.second,
			}),
			404,
		);
		expect((await sb.ok('GET', '/v1/integrations/webhooks')).results).toHaveLength(1);
	});
});

describe('webhook delivery', () => {
	async function hookedList(secret?: string, triggers = 'New Matches'): Promise<number> {
		const listId = await sb.createList({
			ListName: 'Delivered',
			ListType: 'static',
			isMonitored: 1,
		});
		await sb.ok('POST', '/v1/integrations/webhooks', {
			body: {
				HookUrl: receiver.url,
				WebhookName: 'receiver',
				...(secret === undefined ? {} : { Secret: secret }),
				Lists: [listId],
			},
		});
		if (triggers !== 'New Matches') {
			const automation = await automationOf(listId);
			delete automation.Name;
			await sb.ok('PUT', `/v1/lists/${listId}/automations`, {
				body: { ...automation, Triggers: triggers },
			});
		}
		return listId;
	}

	test('a new match is POSTed as JSON with Authorization: Bearer <Secret>', async () => {
		const listId = await hookedList('s3cret-value');
		const fired = await control('/_sandbox/simulate/new-match', { ListID: listId });
		expect(receiver.received).toHaveLength(1);
		const [delivery] = receiver.received;
		expect(delivery.method).toBe('POST');
		expect(delivery.url).toBe('/hook');
		expect(delivery.headers.authorization).toBe('Bearer s3cret-value');
		expect(delivery.headers['content-type']).toMatch(/^application\/json/);
		expect(delivery.body).toMatchObject({
			TriggerType: 'New Match',
			PropID: fired.PropID,
			ListID: listId,
			ListName: 'Delivered',
		});
		const property = (
			await sb.ok(
				'GET',
				`/v1/properties/${fired.PropID}?Purchase=1&Fields=Address,City,State,ZipFive`,
			)
		).results[0];
		expect(delivery.body).toMatchObject({
			Address: property.Address,
			City: property.City,
			State: property.State,
			ZipFive: property.ZipFive,
		});
		expect(await deliveries(listId)).toEqual([
			expect.objectContaining({ outcome: 'delivered', status: 200, attempts: 1 }),
		]);
	});

	test('without a Secret no Authorization header is sent', async () => {
		const listId = await hookedList();
		await control('/_sandbox/simulate/new-match', { ListID: listId });
		expect(receiver.received).toHaveLength(1);
		expect(receiver.received[0].headers).not.toHaveProperty('authorization');
	});

	test('a status change of a member is delivered with Change1 as "<Field>:<old>:<new>"', async () => {
		const listId = await hookedList('k', 'Status Changes');
		await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(['P000090']) });
		expect(receiver.received).toHaveLength(0);
		const change = await control('/_sandbox/simulate/change', {
			PropID: 'P000090',
			change: 'price',
			to: 123_000,
		});
		expect(receiver.received).toHaveLength(1);
		const body = receiver.received[0].body;
		expect(body).toMatchObject({
			TriggerType: 'Change',
			PropID: 'P000090',
			ListID: listId,
			Change1: change.changes[0],
		});
		expect(body.Change1).toMatch(/^Listing Price:\d+:123000$/);
	});

	test('a new loan is a status change: "Total Loan Balance:<old>:<new>", with the balance and equity of the property changed', async () => {
		const listId = await hookedList('k', 'Status Changes');
		await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(['P000093']) });
		const fields = 'Fields=TotalLoanBalance,AvailableEquity,EquityPercent,isFreeAndClear,AVM';
		const before = (await sb.ok('GET', `/v1/properties/P000093?Purchase=1&${fields}`)).results[0];
		const change = await control('/_sandbox/simulate/change', {
			PropID: 'P000093',
			change: 'loan',
			to: 50_000,
		});
		expect(change.changes).toEqual([
			`Total Loan Balance:${before.TotalLoanBalance}:${before.TotalLoanBalance + 50_000}`,
		]);
		expect(receiver.received).toHaveLength(1);
		expect(receiver.received[0].body).toMatchObject({
			TriggerType: 'Change',
			PropID: 'P000093',
			ListID: listId,
			Change1: change.changes[0],
		});
		const after = (await sb.ok('GET', `/v1/properties/P000093?Purchase=1&${fields}`)).results[0];
		expect(after).toEqual({
			AVM: before.AVM,
			TotalLoanBalance: before.TotalLoanBalance + 50_000,
			AvailableEquity: before.AvailableEquity - 50_000,
			EquityPercent: Math.round(((before.AvailableEquity - 50_000) / before.AVM) * 100),
			isFreeAndClear: 0,
		});
		const another = await control('/_sandbox/simulate/change', {
			PropID: 'P000093',
			change: 'loan',
		});
		expect(another.changes[0]).toMatch(
			new RegExp(`^Total Loan Balance:${after.TotalLoanBalance}:\\d+$`),
		);
		expectError(
			await sb.api('POST', '/_sandbox/simulate/change', {
				token: null,
				body: { PropID: 'P000093', change: 'loan', to: -5 },
			}),
			400,
		);
	});

	test('several properties in one event arrive as one array', async () => {
		const listId = await hookedList('k');
		await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(['P000091', 'P000092']) });
		await deliveries(listId);
		expect(receiver.received).toHaveLength(1);
		const body = receiver.received[0].body;
		expect(Array.isArray(body)).toBe(true);
		expect(body.map((event: Json) => event.PropID).sort()).toEqual(['P000091', 'P000092']);
		for (const event of body)
			expect(event).toMatchObject({ TriggerType: 'New Match', ListID: listId });
	});

	test('a 503 from the receiver is retried with the same body', async () => {
		receiver.statuses = [503];
		const listId = await hookedList('k');
		await control('/_sandbox/simulate/new-match', { ListID: listId });
		expect(receiver.received).toHaveLength(2);
		expect(receiver.received[1].body).toEqual(receiver.received[0].body);
		expect(await deliveries(listId)).toEqual([
			expect.objectContaining({
				outcome: 'delivered',
				status: 200,
				attempts: 2,
				statuses: [503, 200],
			}),
		]);
	});

	test('an unmonitored list delivers nothing', async () => {
		const listId = await hookedList('k');
		await sb.ok('PATCH', `/v1/lists/${listId}`, { body: { isMonitored: 0 } });
		await control('/_sandbox/simulate/new-match', { ListID: listId });
		expect(receiver.received).toHaveLength(0);
		expect(await deliveries(listId)).toEqual([]);
	});

	test('a HookUrl that is not a loopback address is refused, not called', async () => {
		const listId = await sb.createList({ ListName: 'Remote', ListType: 'static', isMonitored: 1 });
		// 192.0.2.0/24 is reserved for documentation (RFC 5737); the sandbox must not try it.
		await sb.ok('POST', '/v1/integrations/webhooks', {
			body: {
				HookUrl: 'http://192.0.2.10/hook',
				WebhookName: 'remote',
				Secret: 'k',
				Lists: [listId],
			},
		});
		const fired = await control('/_sandbox/simulate/new-match', { ListID: listId });
		expect(fired.deliveries).toEqual([
			expect.objectContaining({
				HookUrl: 'http://192.0.2.10/hook',
				outcome: 'refused',
				attempts: 0,
				status: null,
			}),
		]);
		expect(await deliveries(listId)).toEqual([
			expect.objectContaining({ outcome: 'refused', attempts: 0 }),
		]);
	});
});
