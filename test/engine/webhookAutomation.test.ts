import type { IDataObject } from 'n8n-workflow';

import { addToList, api, createList, listRef, run, runOk, useEngineSandbox } from './helpers';

const sb = useEngineSandbox();

const monitoredList = (listName: string) =>
	createList(sb, { listName, listType: 'static', isMonitored: true });

describe('Webhook', () => {
	test('create wired to a list, get many without secrets unless asked, delete', async () => {
		const listId = await monitoredList('Hooked');
		const [created] = await runOk(sb, {
			resource: 'webhook',
			operation: 'create',
			hookUrl: 'http://127.0.0.1:9/crm',
			webhookName: 'CRM',
			secret: 'hook-secret-123',
			lists: [String(listId)],
		});
		expect(created.WebhookID).toEqual(expect.any(Number));
		const automation = (
			await api<{ results: Array<Record<string, unknown>> }>(
				sb,
				'GET',
				`/v1/lists/${listId}/automations`,
			)
		).body.results[0];
		expect(automation.ExportToWebhookIDs).toBe(String(created.WebhookID));

		const hidden = await runOk(sb, { resource: 'webhook', operation: 'getMany', returnAll: true });
		expect(hidden.find((hook) => hook.WebhookID === created.WebhookID)).toMatchObject({
			HookUrl: 'http://127.0.0.1:9/crm',
			WebhookName: 'CRM',
		});
		expect(JSON.stringify(hidden)).not.toContain('hook-secret-123');
		const shown = await runOk(sb, {
			resource: 'webhook',
			operation: 'getMany',
			returnAll: true,
			includeSecret: true,
		});
		expect(shown.find((hook) => hook.WebhookID === created.WebhookID)?.Secret).toBe(
			'hook-secret-123',
		);

		const [deleted] = await runOk(sb, {
			resource: 'webhook',
			operation: 'delete',
			webhookId: created.WebhookID,
		});
		expect(deleted).toEqual({ deleted: true, WebhookID: created.WebhookID, deleteCount: 1 });
		const again = await run(sb, {
			resource: 'webhook',
			operation: 'delete',
			webhookId: created.WebhookID,
		});
		expect(again.error?.httpCode).toBe('404');
	});

	test('Return All where the service gives a page shorter than asked for though more follow: webhook pages carry no total, so a short page is checked by asking on from where it ended', async () => {
		for (let index = 0; index < 25; index++) {
			await api(sb, 'POST', '/v1/integrations/webhooks', {
				HookUrl: `http://127.0.0.1:9/capped-${index}`,
				WebhookName: `capped ${index}`,
			});
		}
		const every = (
			await api<{ results: Array<Record<string, unknown>> }>(
				sb,
				'GET',
				'/v1/integrations/webhooks?Start=0&Limit=1000',
			)
		).body.results;
		expect(every.length).toBeGreaterThanOrEqual(25);
		// A service that answers at most 10 a page, whatever Limit asks for: its first page as it would give it.
		sb.faults.push({
			method: 'GET',
			pathPrefix: '/v1/integrations/webhooks',
			count: 1,
			status: 200,
			body: { results: every.slice(0, 10) },
		});
		const all = await runOk(sb, { resource: 'webhook', operation: 'getMany', returnAll: true });
		expect(all.map((hook) => hook.WebhookID)).toEqual(every.map((hook) => hook.WebhookID));
		// Without a cap, one free read more than the pages: the empty page that confirms the end.
		const read = sb.requests.length;
		const uncapped = await runOk(sb, {
			resource: 'webhook',
			operation: 'getMany',
			returnAll: true,
		});
		expect(uncapped).toHaveLength(every.length);
		expect(
			sb.requests
				.slice(read)
				.map((request) => `${request.query.get('Start')}+${request.query.get('Limit')}`),
		).toEqual(['0+500', `${every.length}+${every.length}`]);
		// A Limit reached ends the read without asking on.
		const limitedAt = sb.requests.length;
		expect(
			await runOk(sb, { resource: 'webhook', operation: 'getMany', returnAll: false, limit: 3 }),
		).toHaveLength(3);
		expect(sb.requests.length - limitedAt).toBe(1);
	});

	test('a URL that is not http(s) is refused before sending', async () => {
		const create = (hookUrl: string) =>
			run(sb, { resource: 'webhook', operation: 'create', hookUrl, webhookName: 'x' });
		const before = sb.requests.length;
		const result = await create('ftp://example.com/x');
		expect(result.error?.message).toBe('Hook URL: must start with http:// or https://, got "ftp:"');
		const relative = await create('/hooks');
		expect(relative.error?.message).toBe('Hook URL: "/hooks" is not an absolute URL');
		expect(sb.requests.length).toBe(before);
	});
});

describe('Automation', () => {
	const everyField = (otherList: number) => ({
		isEnabled: true,
		Triggers: 'New Matches,Status Changes',
		DailyEmailMemberIDs: ['M101'],
		ImmediateEmailMemberIDs: ['M102'],
		MobileNotificationMemberIDs: ['M101', 'M103'],
		ExportToWebhookIDs: [],
		DirectMailOrderID: 'DM-7',
		EmailMarketingOrderID: 'EM-9',
		SetInterestLevel: 4,
		SetStatusLevel: 3,
		AddToLists: [String(otherList)],
		RemoveFromLists: [],
		PurchasePhone: false,
		PurchaseEmail: false,
	});
	const configure = (
		listId: number,
		configureMode: string,
		automation: IDataObject,
		options: IDataObject = {},
	) => ({
		resource: 'automation',
		operation: 'configure',
		listId: listRef(listId),
		configureMode,
		automation,
		...options,
	});
	const automationOf = async (listId: number) =>
		(await runOk(sb, { resource: 'automation', operation: 'get', listId: listRef(listId) }))[0];
	const allowCharging = { allowChargingAutomation: true };

	test('configure in update mode keeps every field it was not given', async () => {
		const listId = await monitoredList('Auto');
		const other = await createList(sb, { listName: 'Hot', listType: 'static' });
		await runOk(sb, configure(listId, 'replace', everyField(other), allowCharging));
		const before = await automationOf(listId);

		const [written] = await runOk(
			sb,
			configure(listId, 'update', { SetInterestLevel: 5 }, allowCharging),
		);
		expect(written.updateCount).toBe(1);
		const after = await automationOf(listId);
		expect(after).toEqual({ ...before, SetInterestLevel: 5 });
		expect(after).toMatchObject({
			DirectMailOrderID: 'DM-7',
			AddToLists: String(other),
			MobileNotificationMemberIDs: 'M101,M103',
			Triggers: 'New Matches,Status Changes',
			SetStatusLevel: 3,
		});
		const put = JSON.parse(sb.sent(`/v1/lists/${listId}/automations`, 'PUT').at(-1)!.body);
		expect(put).not.toHaveProperty('Name');
	});

	test('replace mode resets what is not given', async () => {
		const listId = await monitoredList('Replace');
		const other = await createList(sb, { listName: 'Other', listType: 'static' });
		await runOk(sb, configure(listId, 'replace', everyField(other), allowCharging));
		await runOk(sb, configure(listId, 'replace', { isEnabled: true, Triggers: 'New Matches' }));
		const after = await automationOf(listId);
		expect(after).toMatchObject({
			isEnabled: 1,
			Triggers: 'New Matches',
			DirectMailOrderID: '',
			AddToLists: '',
			SetInterestLevel: null,
			SetStatusLevel: null,
		});
	});

	test('the list itself in Add To Lists, levels out of range and a bad trigger are refused before sending', async () => {
		const listId = await createList(sb, { listName: 'Self', listType: 'static' });
		const before = sb.sent(`/v1/lists/${listId}/automations`).length;
		const self = await run(sb, configure(listId, 'update', { AddToLists: [String(listId)] }));
		expect(self.error?.message).toBe(`AddToLists: must not include the list itself (${listId})`);
		const interest = await run(sb, configure(listId, 'update', { SetInterestLevel: '={{ 6 }}' }));
		expect(interest.error?.message).toBe(
			'SetInterestLevel: must be a whole number from 0 to 5, got "6"',
		);
		const status = await run(sb, configure(listId, 'update', { SetStatusLevel: '={{ 10 }}' }));
		expect(status.error?.message).toBe(
			'SetStatusLevel: must be a whole number from 0 to 9, got "10"',
		);
		const triggers = await run(sb, configure(listId, 'update', { Triggers: '={{ "Sometimes" }}' }));
		expect(triggers.error?.message).toContain('Triggers: must be one of');
		expect(sb.sent(`/v1/lists/${listId}/automations`).length).toBe(before);
	});

	test('an automation that stars, re-levels and moves matching properties does so when it fires', async () => {
		const listId = await monitoredList('Inbox');
		const hot = await createList(sb, { listName: 'Hot leads', listType: 'static' });
		await runOk(
			sb,
			configure(listId, 'update', {
				isEnabled: true,
				Triggers: 'New Matches',
				SetInterestLevel: 5,
				SetStatusLevel: 2,
				AddToLists: [String(hot)],
			}),
		);
		await addToList(sb, listId, 'P000321');
		const moved = await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(hot),
			returnAll: true,
			filters: { InterestLevel: [5], StatusLevel: ['2'] },
		});
		expect(moved.map((item) => item.PropID)).toEqual(['P000321']);
	});
});
