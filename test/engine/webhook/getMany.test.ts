import { api, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('Webhook', () => {
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
});
