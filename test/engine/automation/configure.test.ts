import type { IDataObject } from 'n8n-workflow';

import {
	addToList,
	createList,
	listRef,
	run,
	runOk,
	useEngineSandbox,
} from '../../support/helpers';

const sb = useEngineSandbox();

const monitoredList = (listName: string) =>
	createList(sb, { listName, listType: 'static', isMonitored: true });

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
