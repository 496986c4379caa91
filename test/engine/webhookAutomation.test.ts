import { TOKENS } from './harness';
import { api, createList, listRef, run, runOk, useEngineSandbox } from './helpers';

const sb = useEngineSandbox();

describe('Webhook', () => {
	test('create wired to a list, get many without secrets unless asked, delete', async () => {
		const listId = await createList(sb, { listName: 'Hooked', listType: 'static', isMonitored: true });
		const [created] = await runOk(sb, {
			resource: 'webhook', operation: 'create', hookUrl: 'http://127.0.0.1:9/crm', webhookName: 'CRM', secret: 'hook-secret-123', lists: [String(listId)],
		});
		expect(created.WebhookID).toEqual(expect.any(Number));
		const automation = (await api<{ results: Array<Record<string, unknown>> }>(sb, 'GET', `/v1/lists/${listId}/automations`)).body.results[0];
		expect(automation.ExportToWebhookIDs).toBe(String(created.WebhookID));

		const hidden = await runOk(sb, { resource: 'webhook', operation: 'getMany', returnAll: true });
		expect(hidden.find((hook) => hook.WebhookID === created.WebhookID)).toMatchObject({ HookUrl: 'http://127.0.0.1:9/crm', WebhookName: 'CRM' });
		expect(JSON.stringify(hidden)).not.toContain('hook-secret-123');
		const shown = await runOk(sb, { resource: 'webhook', operation: 'getMany', returnAll: true, includeSecret: true });
		expect(shown.find((hook) => hook.WebhookID === created.WebhookID)?.Secret).toBe('hook-secret-123');

		const [deleted] = await runOk(sb, { resource: 'webhook', operation: 'delete', webhookId: created.WebhookID });
		expect(deleted).toEqual({ WebhookID: created.WebhookID, deleteCount: 1 });
		const again = await run(sb, { resource: 'webhook', operation: 'delete', webhookId: created.WebhookID });
		expect(again.error?.httpCode).toBe('404');
	});

	test('a URL that is not http(s) is refused before sending', async () => {
		const before = sb.requests.length;
		const result = await run(sb, { resource: 'webhook', operation: 'create', hookUrl: 'ftp://example.com/x', webhookName: 'x' });
		expect(result.error?.message).toBe('Hook URL: must start with http:// or https://, got "ftp:"');
		const relative = await run(sb, { resource: 'webhook', operation: 'create', hookUrl: '/hooks', webhookName: 'x' });
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

	test('configure in update mode keeps every field it was not given', async () => {
		const listId = await createList(sb, { listName: 'Auto', listType: 'static', isMonitored: true });
		const other = await createList(sb, { listName: 'Hot', listType: 'static' });
		await runOk(sb, { resource: 'automation', operation: 'configure', listId: listRef(listId), configureMode: 'replace', automation: everyField(other), allowChargingAutomation: true });
		const [before] = await runOk(sb, { resource: 'automation', operation: 'get', listId: listRef(listId) });

		const [written] = await runOk(sb, { resource: 'automation', operation: 'configure', listId: listRef(listId), configureMode: 'update', automation: { SetInterestLevel: 5 }, allowChargingAutomation: true });
		expect(written.updateCount).toBe(1);
		const [after] = await runOk(sb, { resource: 'automation', operation: 'get', listId: listRef(listId) });
		expect(after).toEqual({ ...before, SetInterestLevel: 5 });
		expect(after).toMatchObject({ DirectMailOrderID: 'DM-7', AddToLists: String(other), MobileNotificationMemberIDs: 'M101,M103', Triggers: 'New Matches,Status Changes', SetStatusLevel: 3 });
		const put = JSON.parse(sb.sent(`/v1/lists/${listId}/automations`, 'PUT').at(-1)!.body);
		expect(put).not.toHaveProperty('Name');
	});

	test('replace mode resets what is not given', async () => {
		const listId = await createList(sb, { listName: 'Replace', listType: 'static', isMonitored: true });
		const other = await createList(sb, { listName: 'Other', listType: 'static' });
		await runOk(sb, { resource: 'automation', operation: 'configure', listId: listRef(listId), configureMode: 'replace', automation: everyField(other), allowChargingAutomation: true });
		await runOk(sb, { resource: 'automation', operation: 'configure', listId: listRef(listId), configureMode: 'replace', automation: { isEnabled: true, Triggers: 'New Matches' } });
		const [after] = await runOk(sb, { resource: 'automation', operation: 'get', listId: listRef(listId) });
		expect(after).toMatchObject({ isEnabled: 1, Triggers: 'New Matches', DirectMailOrderID: '', AddToLists: '', SetInterestLevel: null, SetStatusLevel: null });
	});

	test('the list itself in Add To Lists, levels out of range and a bad trigger are refused before sending', async () => {
		const listId = await createList(sb, { listName: 'Self', listType: 'static' });
		const before = sb.sent(`/v1/lists/${listId}/automations`).length;
		const self = await run(sb, { resource: 'automation', operation: 'configure', listId: listRef(listId), configureMode: 'update', automation: { AddToLists: [String(listId)] } });
		expect(self.error?.message).toBe(`AddToLists: must not include the list itself (${listId})`);
		const interest = await run(sb, { resource: 'automation', operation: 'configure', listId: listRef(listId), configureMode: 'update', automation: { SetInterestLevel: '={{ 6 }}' } });
		expect(interest.error?.message).toBe('SetInterestLevel: must be a whole number from 0 to 5, got "6"');
		const status = await run(sb, { resource: 'automation', operation: 'configure', listId: listRef(listId), configureMode: 'update', automation: { SetStatusLevel: '={{ 10 }}' } });
		expect(status.error?.message).toBe('SetStatusLevel: must be a whole number from 0 to 9, got "10"');
		const triggers = await run(sb, { resource: 'automation', operation: 'configure', listId: listRef(listId), configureMode: 'update', automation: { Triggers: '={{ "Sometimes" }}' } });
		expect(triggers.error?.message).toContain('Triggers: must be one of');
		expect(sb.sent(`/v1/lists/${listId}/automations`).length).toBe(before);
	});

	test('an automation that stars, re-levels and moves matching properties does so when it fires', async () => {
		const listId = await createList(sb, { listName: 'Inbox', listType: 'static', isMonitored: true });
		const hot = await createList(sb, { listName: 'Hot leads', listType: 'static' });
		await runOk(sb, {
			resource: 'automation', operation: 'configure', listId: listRef(listId), configureMode: 'update',
			automation: { isEnabled: true, Triggers: 'New Matches', SetInterestLevel: 5, SetStatusLevel: 2, AddToLists: [String(hot)] },
		});
		await runOk(sb, { resource: 'listItem', operation: 'add', listId: listRef(listId), addBy: 'propIds', propIds: 'P000321' });
		const moved = await runOk(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(hot), returnAll: true, filters: { InterestLevel: [5], StatusLevel: ['2'] } });
		expect(moved.map((item) => item.PropID)).toEqual(['P000321']);
	});
});

describe('Person', () => {
	test('owners: preview, purchase with fieldsets and suppression', async () => {
		const [quote] = await runOk(sb, { resource: 'person', operation: 'getOwners', propId: 'P000500', chargeMode: 'preview' });
		expect(quote).toMatchObject({ preview: true, PropID: 'P000500' });
		const owners = await runOk(sb, { resource: 'person', operation: 'getOwners', propId: 'P000500', fields: { fieldsets: ['overview'], exclude: ['Email'] }, chargeMode: 'purchase', maxCost: 5 });
		expect(owners.length).toBe(quote.resultCount);
		expect(owners[0]).toHaveProperty('PersonKey');
		expect(owners[0]).toHaveProperty('Phone');
		expect(owners[0]).not.toHaveProperty('Email');
		expect(owners[0]).not.toHaveProperty('MailAddress');
	});

	test('purchase a phone, then buying it again is a clear result, not a crash; the phone shows in the owners', async () => {
		const [owner] = await runOk(sb, { resource: 'person', operation: 'getOwners', propId: 'P000600', chargeMode: 'purchase', maxCost: 5 }, undefined, TOKENS.second);
		const key = String(owner.PersonKey);
		const [bought] = await runOk(sb, { resource: 'person', operation: 'purchasePhone', personKey: key, chargeMode: 'purchase', maxCost: 5 }, undefined, TOKENS.second);
		expect(bought).toMatchObject({ PersonKey: key, purchased: true });
		expect((bought.Phone as unknown[]).length).toBe(1);
		const [again] = await runOk(sb, { resource: 'person', operation: 'purchasePhone', personKey: key, chargeMode: 'purchase', maxCost: 5 }, undefined, TOKENS.second);
		expect(again).toMatchObject({ PersonKey: key, purchased: false, alreadyPurchased: true });
		expect(sb.sent(`/v1/persons/${key}/Phone`).filter((r) => r.query.get('Purchase') === '1')).toHaveLength(1);
		const owners = await runOk(sb, { resource: 'person', operation: 'getOwners', propId: 'P000600', fields: { include: ['Phone'] }, chargeMode: 'purchase', maxCost: 5 }, undefined, TOKENS.second);
		expect((owners.find((o) => o.PersonKey === key)!.Phone as unknown[]).length).toBe(1);
		const [email] = await runOk(sb, { resource: 'person', operation: 'purchaseEmail', personKey: key, chargeMode: 'preview' }, undefined, TOKENS.second);
		expect(email).toMatchObject({ preview: true, purchase: 'Email', resultCount: 1 });
	});

	test('purchase an e-mail: the preview charges nothing, the purchase buys it once, buying it again is a clear result; the e-mail shows in the owners', async () => {
		const charges = async () => (await api<{ log: Array<{ kind: string; quantity: number; cents: number; creditsUsed: number; what: string }> }>(sb, 'GET', `/_sandbox/charges?token=${TOKENS.main}`)).body.log;
		const [owner] = await runOk(sb, { resource: 'person', operation: 'getOwners', propId: 'P000610', chargeMode: 'purchase', maxCost: 5 });
		const key = String(owner.PersonKey);
		expect(owner.Email).toEqual([]);

		const beforePreview = (await charges()).length;
		const [quote] = await runOk(sb, { resource: 'person', operation: 'purchaseEmail', personKey: key, chargeMode: 'preview' });
		expect(quote).toMatchObject({ PersonKey: key, preview: true, purchase: 'Email', resultCount: 1, totalCost: expect.any(String) });
		expect(await charges()).toHaveLength(beforePreview);
		expect(sb.sent(`/v1/persons/${key}/Email`).filter((r) => r.query.get('Purchase') === '1')).toHaveLength(0);

		const [bought] = await runOk(sb, { resource: 'person', operation: 'purchaseEmail', personKey: key, chargeMode: 'purchase', maxCost: 5 });
		expect(bought).toMatchObject({ PersonKey: key, PropID: 'P000610', purchased: true });
		const email = bought.Email as Array<{ linktext: string; href: string }>;
		expect(email).toHaveLength(1);
		expect(email[0].href).toBe(`mailto:${email[0].linktext}`);
		const afterPurchase = await charges();
		expect(afterPurchase.slice(beforePreview)).toEqual([expect.objectContaining({ kind: 'email', quantity: 1, what: `email of ${key}` })]);
		expect((bought._charge as { totalCost: string }).totalCost).toBe((afterPurchase.at(-1)!.cents / 100).toFixed(2));
		expect(quote.totalCost).toBe((bought._charge as { totalCost: string }).totalCost);

		const [again] = await runOk(sb, { resource: 'person', operation: 'purchaseEmail', personKey: key, chargeMode: 'purchase', maxCost: 5 });
		expect(again).toMatchObject({ PersonKey: key, purchased: false, alreadyPurchased: true });
		expect(again.message).toContain('e-mail address');
		expect(again.message).toContain('nothing was charged');
		expect(again).not.toHaveProperty('Email');
		expect(await charges()).toHaveLength(afterPurchase.length);
		expect(sb.sent(`/v1/persons/${key}/Email`).filter((r) => r.query.get('Purchase') === '1')).toHaveLength(1);

		const owners = await runOk(sb, { resource: 'person', operation: 'getOwners', propId: 'P000610', fields: { include: ['Email', 'Phone'] }, chargeMode: 'purchase', maxCost: 5 });
		const after = owners.find((o) => o.PersonKey === key)!;
		expect(after.Email).toEqual(email);
		expect(after.Phone).toEqual([]);
		const others = await runOk(sb, { resource: 'person', operation: 'getOwners', propId: 'P000610', fields: { include: ['Email'] }, chargeMode: 'purchase', maxCost: 5 }, undefined, TOKENS.second);
		expect(others.find((o) => o.PersonKey === key)!.Email).toEqual([]);
	});

	test('records of each kind, charged, with their fieldsets', async () => {
		for (const kind of ['bankruptcies', 'divorces', 'liens', 'probates', 'relatives']) {
			const records = await runOk(sb, { resource: 'person', operation: 'getRecords', personKey: 'K000010A', recordKind: kind, returnAll: true, chargeMode: 'purchase', maxCost: 5 });
			for (const record of records) expect(record.PersonKey).toBe('K000010A');
		}
		const [quote] = await runOk(sb, { resource: 'person', operation: 'getRecords', personKey: 'K000010A', recordKind: 'liens', returnAll: true, chargeMode: 'preview' });
		expect(quote).toMatchObject({ preview: true, records: 'liens' });
		const unknown = await run(sb, { resource: 'person', operation: 'getRecords', personKey: 'NOPE', recordKind: 'liens', returnAll: true, chargeMode: 'preview' });
		expect(unknown.error?.httpCode).toBe('404');
	});

	test('sandbox-broke: a 402 on a purchase, with what to do', async () => {
		const result = await run(sb, { resource: 'person', operation: 'getOwners', propId: 'P000700', chargeMode: 'purchase', maxCost: 5 }, undefined, TOKENS.broke);
		expect(result.error?.httpCode).toBe('402');
		expect(result.error?.description).toContain('Nothing was charged');
	});
});
