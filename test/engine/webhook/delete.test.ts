import { api, createList, run, runOk, useEngineSandbox } from '../../support/helpers';

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
});
