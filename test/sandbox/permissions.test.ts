import { expectError, TOKENS, useSandbox } from './helpers';

/**
 * The two 403 causes of the lists document (Authentication 4) the other accounts do not model: a
 * token without the API entitlement, and no permission for the operation.
 */
const sb = useSandbox();

const STATE_OR = [{ name: 'State', value: ['OR'] }];

test.each([
	['GET', '/v1/lists'],
	['POST', '/v1/lists'],
	['POST', '/v1/properties?Purchase=0'],
	['GET', '/v1/properties/P000001/persons?Purchase=0'],
	['GET', '/v1/lists/1/import/items'],
	['GET', '/v1/integrations/webhooks'],
	['GET', '/v1/accounts/members'],
])(
	'a token without the API entitlement: %s %s is 403 naming the entitlement',
	async (method, path) => {
		const body =
			method !== 'POST'
				? undefined
				: path.startsWith('/v1/lists')
					? { ListName: 'x', ListType: 'static' }
					: { Criteria: STATE_OR };
		const refused = expectError(
			await sb.api(method, path, { token: TOKENS.noApi, body }),
			403,
			'You are not authorized to use this service',
		);
		expect(refused.message).toMatch(/API entitlement/);
	},
);

describe('a member without permission for the operation', () => {
	test('reads, and buys through reads, as any member', async () => {
		const token = TOKENS.readOnly;
		expect((await sb.ok('GET', '/v1/lists', { token })).results).toEqual([]);
		const found = await sb.ok('POST', '/v1/properties?Purchase=1&Limit=2&Fields=PropID', {
			token,
			body: { Criteria: STATE_OR },
		});
		expect(found.results).toHaveLength(2);
		expect(
			(await sb.ok('GET', '/v1/properties/P000001?Purchase=1', { token })).results,
		).toHaveLength(1);
		expect((await sb.charges(token)).log).toHaveLength(2);
	});

	test.each([
		['POST', '/v1/lists', { ListName: 'x', ListType: 'static' }],
		['PATCH', '/v1/lists/1', { ListName: 'y' }],
		['DELETE', '/v1/lists/1', undefined],
		['PUT', '/v1/lists/1/items', { Criteria: [{ name: 'PropID', value: ['P000001'] }] }],
		['DELETE', '/v1/lists/1/items/P000001', undefined],
		['PUT', '/v1/lists/1/automations', { isEnabled: 0 }],
		['POST', '/v1/lists/1/import/items?Purchase=1', [{ Address: '1 Main St' }]],
		['POST', '/v1/persons/K000001A/Phone?Purchase=1', undefined],
		['POST', '/v1/integrations/webhooks', { HookUrl: 'http://127.0.0.1:9/h', WebhookName: 'x' }],
	])(
		'%s %s is 403 saying the user may not do it; nothing changes or is charged',
		async (method, path, body) => {
			const token = TOKENS.readOnly;
			const before = await sb.charges(token);
			const refused = expectError(
				await sb.api(method, path, { token, body }),
				403,
				'You are not authorized to use this service',
			);
			expect(refused.message).toMatch(/permission/);
			expect(await sb.charges(token)).toEqual(before);
			expect((await sb.ok('GET', '/v1/lists', { token })).results).toEqual([]);
			expect((await sb.ok('GET', '/v1/integrations/webhooks', { token })).results).toEqual([]);
		},
	);
});
