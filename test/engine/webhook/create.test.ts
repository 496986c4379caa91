import { run, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

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
});
