import type { IDataObject } from 'n8n-workflow';

import { api, run, runOk, useEngineSandbox, useVariants } from '../../support/helpers';

const sb = useEngineSandbox();

afterEach(async () => {
	sb.faults.length = 0;
	await useVariants(sb, []);
});

const create = (webhookName: string) => ({
	resource: 'webhook',
	operation: 'create',
	hookUrl: `https://example.com/hooks/${encodeURIComponent(webhookName)}`,
	webhookName,
	secret: 'kept-secret',
});

const webhooks = async () =>
	(await api<{ results: IDataObject[] }>(sb, 'GET', '/v1/integrations/webhooks')).body.results;

describe('Webhook', () => {
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

	test('create under webhook-answer: the WebhookID in a webhook object is read', async () => {
		await useVariants(sb, ['webhook-answer']);
		const [created] = await runOk(sb, create('answer in an object'));
		const stored = (await webhooks()).find((hook) => hook.WebhookName === 'answer in an object');
		expect(created.WebhookID).toBe(stored?.WebhookID);
		expect(created.WebhookID).toEqual(expect.any(Number));
	});

	test('create with a WebhookID at the top level of the answer reads it', async () => {
		sb.faults.push({
			method: 'POST',
			pathPrefix: '/v1/integrations/webhooks',
			count: 1,
			rewrite: (body) => ({ WebhookID: String((body.results as IDataObject[])[0].WebhookID) }),
		});
		const [created] = await runOk(sb, create('answer at the top'));
		const stored = (await webhooks()).find((hook) => hook.WebhookName === 'answer at the top');
		expect(created.WebhookID).toBe(stored?.WebhookID);
	});

	test('an answer without a WebhookID stops, naming the assumption, what arrived (secrets hidden) and the webhook to look for', async () => {
		sb.faults.push({
			method: 'POST',
			pathPrefix: '/v1/integrations/webhooks',
			count: 1,
			rewrite: () => ({ id: 'x', Secret: 'kept-secret' }),
		});
		const result = await run(sb, create('answer unreadable'));
		expect(result.error?.message).toBe("PropRadar's answer to the new webhook holds no WebhookID");
		const description = String((result.error as { description?: string }).description);
		expect(description).toContain('The node assumes `results[0].WebhookID`');
		expect(description).toContain('Arrived: {"id":"x","Secret":"(hidden)"}');
		expect(description).toContain(
			'PropRadar most likely created webhook "answer unreadable" for https://example.com/hooks/answer%20unreadable',
		);
		expect(description).toContain('Webhook > Get Many');
		expect(`${result.error?.message} ${description}`).not.toContain('kept-secret');
	});
});
