import { call, expectError, TOKENS, useSandbox, type Json } from './helpers';

const sb = useSandbox();

const STATE_OR = [{ name: 'State', value: ['OR'] }];

describe('400: bad requests', () => {
	test('an unknown criterion name is "Unexpected Criterion" wherever Criteria are taken', async () => {
		const bogus = [{ name: 'FavouriteColour', value: ['blue'] }];
		expectError(
			await sb.api('POST', '/v1/lists', { body: { ListName: 'x', Criteria: bogus } }),
			400,
			'Unexpected Criterion',
		);
		expectError(
			await sb.api('POST', '/v1/properties?Purchase=0', { body: { Criteria: bogus } }),
			400,
			'Unexpected Criterion',
		);
		const listId = await sb.createList({ ListName: 'Static', ListType: 'static' });
		expectError(
			await sb.api('PUT', `/v1/lists/${listId}/items`, { body: { Criteria: bogus } }),
			400,
			'Unexpected Criterion',
		);
		expectError(
			await sb.api('POST', '/v1/properties?Purchase=0', {
				body: { Criteria: [{ name: 'PropertyType', value: [{ name: 'Nope', value: ['x'] }] }] },
			}),
			400,
			'Unexpected Criterion',
		);
		expect((await sb.ok('GET', '/v1/lists')).results).toHaveLength(1);
	});

	test('an unknown body field is "Unexpected payload field", naming it', async () => {
		const create = expectError(
			await sb.api('POST', '/v1/lists', {
				body: { ListName: 'x', ListType: 'static', Colour: 'red' },
			}),
			400,
			'Unexpected payload field',
		);
		expect(create.message).toContain('Colour');
		const listId = await sb.createList({ ListName: 'Static', ListType: 'static' });
		expect(
			expectError(
				await sb.api('PATCH', `/v1/lists/${listId}`, { body: { Colour: 'red' } }),
				400,
				'Unexpected payload field',
			).message,
		).toContain('Colour');
		expectError(
			await sb.api('PUT', `/v1/lists/${listId}/items`, { body: { Criteria: STATE_OR, Limit: 3 } }),
			400,
			'Unexpected payload field',
		);
		expectError(
			await sb.api('POST', '/v1/properties?Purchase=0', {
				body: { Criteria: [{ name: 'State', value: ['OR'], weight: 2 }] },
			}),
			400,
			'Unexpected payload field',
		);
		expect((await sb.ok('GET', '/v1/lists')).results).toHaveLength(1);
	});

	test('a value of the wrong type is refused, not coerced', async () => {
		const refused = [
			{ ListName: 5, ListType: 'static' },
			{ ListName: 'x', ListType: 'static', isMonitored: '1' },
			{ ListName: 'x', ListType: 'list' },
			{ ListName: 'x', Criteria: 'State=OR' },
			{ ListName: 'x', Criteria: [{ name: 'Beds', value: [3] }] },
			{ ListName: 'x', Criteria: [{ name: 'Pool', value: ['yes'] }] },
			{ ListName: 'x', Criteria: [{ name: 'State', value: [] }] },
			{ ListName: 'x', ListType: 'import', ImportSource: 'api', ImportMatchThreshold: '80' },
			{ ListType: 'static' },
		];
		for (const body of refused) {
			const answer = await sb.api('POST', '/v1/lists', { body });
			expect({ body, status: answer.status }).toEqual({ body, status: 400 });
			expectError(answer, 400);
		}
		expect((await sb.ok('GET', '/v1/lists')).results).toEqual([]);
	});

	test('a body that is not JSON is refused', async () => {
		const response = await fetch(`${sb.url}/v1/lists`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${TOKENS.main}`, 'content-type': 'application/json' },
			body: '{"ListName": ',
		});
		expectError(
			{ status: response.status, headers: response.headers, body: await response.json() },
			400,
		);
	});

	test('an unknown name in Fields fails the whole request', async () => {
		const listId = await sb.createList({
			ListName: 'Some',
			Criteria: [{ name: 'PropID', value: ['P000001'] }],
		});
		expectError(
			await sb.api('GET', '/v1/properties/P000001?Purchase=1&Fields=Overview,Shoes'),
			400,
		);
		expectError(
			await sb.api('POST', '/v1/properties?Purchase=1&Fields=Grid,-Shoes', {
				body: { Criteria: STATE_OR },
			}),
			400,
		);
		expectError(await sb.api('GET', `/v1/lists/${listId}/items?Fields=Shoes`), 400);
		expectError(
			await sb.api('GET', '/v1/properties/P000001/persons?Purchase=1&Fields=default,Shoes'),
			400,
		);
		expectError(await sb.api('GET', '/v1/lists?Fields=Shoes'), 400);
		expect((await sb.charges()).log).toEqual([]);
	});

	test('an unknown query parameter is refused, naming it', async () => {
		const body = expectError(await sb.api('GET', '/v1/lists?Colour=red'), 400);
		expect(body.message).toContain('Colour');
		expectError(await sb.api('GET', '/v1/properties/P000001?Purchase=0&Limit=3'), 400);
	});

	test('Criteria on an import list create is refused; a dynamic list needs them', async () => {
		expectError(
			await sb.api('POST', '/v1/lists', {
				body: { ListName: 'x', ListType: 'import', ImportSource: 'api', Criteria: STATE_OR },
			}),
			400,
		);
		expectError(
			await sb.api('POST', '/v1/lists', { body: { ListName: 'x', ListType: 'dynamic' } }),
			400,
		);
		expectError(
			await sb.api('POST', '/v1/lists', {
				body: { ListName: 'x', ListType: 'static', ImportSource: 'api' },
			}),
			400,
		);
		expect((await sb.ok('GET', '/v1/lists')).results).toEqual([]);
	});

	test('Purchase is required and must be 0 or 1 on charging endpoints', async () => {
		expectError(await sb.api('GET', '/v1/properties/P000001'), 400, 'Invalid Purchase');
		expectError(await sb.api('GET', '/v1/properties/P000001?Purchase=2'), 400, 'Invalid Purchase');
		expectError(
			await sb.api('POST', '/v1/properties', { body: { Criteria: STATE_OR } }),
			400,
			'Invalid Purchase',
		);
		expect((await sb.charges()).log).toEqual([]);
	});
});

describe('401: invalid or missing token', () => {
	const routes: Array<[string, string, unknown?]> = [
		['GET', '/v1/lists'],
		['POST', '/v1/lists', { ListName: 'x', ListType: 'static' }],
		['GET', '/v1/properties/P000001?Purchase=0'],
		['POST', '/v1/properties?Purchase=0', { Criteria: STATE_OR }],
		['GET', '/v1/properties/P000001/persons?Purchase=0'],
		['GET', '/v1/persons/K000001A/liens?Purchase=0'],
		['POST', '/v1/persons/K000001A/Phone?Purchase=0'],
		['GET', '/v1/accounts/members'],
		['GET', '/v1/accounts/preferences/statuses'],
	];

	test.each(routes.map(([method, path, body]) => ({ method, path, body })))(
		'$method $path',
		async ({ method, path, body }) => {
			expectError(
				await sb.api(method, path, { body, token: 'not-a-token' }),
				401,
				'Invalid or expired token',
			);
			expectError(await sb.api(method, path, { body, token: null }), 401);
			expectError(
				await sb.api(method, path, {
					body,
					token: null,
					headers: { Authorization: `Basic ${Buffer.from(`${TOKENS.main}:`).toString('base64')}` },
				}),
				401,
			);
		},
	);

	test('the token is checked before the body: a bad body without a token is 401, not 400', async () => {
		expectError(await sb.api('POST', '/v1/lists', { token: null, body: { Colour: 'red' } }), 401);
		expectError(
			await sb.api('PATCH', '/v1/lists/1', { token: 'not-a-token', body: { ListName: 5 } }),
			401,
		);
		expectError(
			await sb.api('POST', '/v1/lists', { token: TOKENS.inactive, body: { Colour: 'red' } }),
			403,
		);
	});

	test.each([
		['POST', '/v1/lists', 401],
		['PATCH', '/v1/lists/1', 401],
		['PUT', '/v1/lists/1/items', 401],
		['PUT', '/v1/lists/1/automations', 401],
		['POST', '/v1/properties?Purchase=0', 401],
		['POST', '/v1/persons/K000001A/Phone?Purchase=0', 401],
		['POST', '/v1/persons/K000001A/Email?Purchase=0', 401],
		['POST', '/v1/lists/1/import/items?Purchase=0', 404],
		['PATCH', '/v1/lists/1/import/items/1', 404],
		['POST', '/v1/integrations/webhooks', 404],
	])('malformed JSON without a token: %s %s answers %i, not 400', async (method, path, status) => {
		const response = await fetch(`${sb.url}${path}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: '{"Criteria": [',
		});
		expect(response.status).toBe(status);
	});

	test('a bad token on the routes that hide themselves is still 401', async () => {
		expectError(await sb.api('GET', '/v1/integrations/webhooks', { token: 'not-a-token' }), 401);
		expectError(await sb.api('GET', '/v1/lists/1/import/items', { token: 'not-a-token' }), 401);
	});
});

describe('402: insufficient balance', () => {
	test('a purchase that costs money answers Insufficient Balance with a message and a title, and charges and changes nothing', async () => {
		const listId = await sb.createList(
			{ ListName: 'Broke imports', ListType: 'import', ImportSource: 'api' },
			TOKENS.broke,
		);
		const before = await sb.charges(TOKENS.broke);
		expect(before).toMatchObject({ credits: 0, balanceCents: 0, log: [] });

		const attempts = [
			sb.api('POST', `/v1/lists/${listId}/import/items?Purchase=1`, {
				token: TOKENS.broke,
				body: [{ Address: '1 Nowhere Rd' }],
			}),
			sb.api('GET', '/v1/properties/P000001?Purchase=1', { token: TOKENS.broke }),
			sb.api('POST', '/v1/properties?Purchase=1&Limit=5', {
				token: TOKENS.broke,
				body: { Criteria: STATE_OR },
			}),
			sb.api('GET', '/v1/properties/P000001/persons?Purchase=1', { token: TOKENS.broke }),
			sb.api('POST', '/v1/persons/K000001A/Phone?Purchase=1', { token: TOKENS.broke }),
			sb.api('POST', '/v1/persons/K000001A/Email?Purchase=1', { token: TOKENS.broke }),
		];
		for (const answer of await Promise.all(attempts)) {
			const body = expectError(answer, 402, 'Insufficient Balance');
			expect(body.message).toEqual(expect.any(String));
			expect(body.message.length).toBeGreaterThan(0);
			expect(body.messageTitle).toEqual(expect.any(String));
			expect(body.messageTitle.length).toBeGreaterThan(0);
		}

		expect(await sb.charges(TOKENS.broke)).toEqual(before);
		expect(
			(await sb.ok('GET', `/v1/lists/${listId}/import/items`, { token: TOKENS.broke })).results,
		).toEqual([]);
		expect(
			(await sb.ok('GET', `/v1/lists/${listId}`, { token: TOKENS.broke })).results[0],
		).toMatchObject({ TotalCount: '0', TotalImportItems: 0 });
		// Not bought: a quote is still possible (a bought phone answers "already purchased").
		const quote = await sb.ok('POST', '/v1/persons/K000001A/Phone?Purchase=0', {
			token: TOKENS.broke,
		});
		expect(quote).toMatchObject({ results: [], totalCost: '0.40', quantityFreeRemaining: 0 });
	});

	test('Purchase=0 still quotes for a broke account, and a call that costs nothing succeeds', async () => {
		const quote = await sb.ok('GET', '/v1/properties/P000001?Purchase=0', { token: TOKENS.broke });
		expect(quote).toEqual({
			results: [],
			totalCost: '0.10',
			quantityFreeRemaining: 0,
			resultCount: 1,
		});
		let empty: string | undefined;
		for (let i = 1; i <= 100 && !empty; i++) {
			const propId = `P${String(i).padStart(6, '0')}`;
			if (
				(
					await sb.ok('GET', `/v1/properties/${propId}/evictions?Purchase=0`, {
						token: TOKENS.broke,
					})
				).resultCount === 0
			)
				empty = propId;
		}
		expect(empty).toBeDefined();
		expect(
			await sb.ok('GET', `/v1/properties/${empty}/evictions?Purchase=1`, { token: TOKENS.broke }),
		).toMatchObject({ results: [], totalCost: '0.00', resultCount: 0 });
		expect((await sb.charges(TOKENS.broke)).log).toEqual([]);
	});
});

describe('403: valid token, refused', () => {
	test.each([
		['GET', '/v1/lists'],
		['POST', '/v1/properties?Purchase=0'],
		['GET', '/v1/properties/P000001/persons?Purchase=0'],
		['GET', '/v1/integrations/webhooks'],
		['GET', '/v1/lists/1/import/items'],
		['GET', '/v1/accounts/members'],
	])('an inactive subscription: %s %s', async (method, path) => {
		const body = method === 'POST' ? { Criteria: STATE_OR } : undefined;
		expectError(
			await sb.api(method, path, { token: TOKENS.inactive, body }),
			403,
			'You are not authorized to use this service',
		);
	});

	test.each([
		['GET', '/v1/integrations/webhooks'],
		['POST', '/v1/integrations/webhooks'],
		['DELETE', '/v1/integrations/webhooks/1'],
	])('an account without the integrations entitlement: %s %s', async (method, path) => {
		const body =
			method === 'POST' ? { HookUrl: 'http://127.0.0.1:9/hook', WebhookName: 'x' } : undefined;
		const refused = expectError(
			await sb.api(method, path, { token: TOKENS.noIntegrations, body }),
			403,
			'You are not authorized to use this service',
		);
		expect(refused.message).toMatch(/integrations/);
	});

	test('an account without the integrations entitlement uses everything else, and creates no webhook', async () => {
		expect((await sb.api('GET', '/v1/lists', { token: TOKENS.noIntegrations })).status).toBe(200);
		expect(
			(
				await sb.api('POST', '/v1/properties?Purchase=1&Limit=1', {
					token: TOKENS.noIntegrations,
					body: { Criteria: STATE_OR },
				})
			).status,
		).toBe(200);
		expect(
			(
				await sb.api('POST', '/v1/lists', {
					token: TOKENS.noIntegrations,
					body: { ListName: 'Mine', ListType: 'static' },
				})
			).status,
		).toBe(200);
		await sb.api('POST', '/v1/integrations/webhooks', {
			token: TOKENS.noIntegrations,
			body: { HookUrl: 'http://127.0.0.1:9/hook', WebhookName: 'x' },
		});
		expect((await sb.ok('GET', '/v1/integrations/webhooks')).results).toEqual([]);
	});

	test.each([
		['GET', '/v1/lists'],
		['POST', '/v1/lists'],
		['GET', '/v1/properties/P000001?Purchase=0'],
		['GET', '/v1/integrations/webhooks'],
		['POST', '/v1/lists/1/import/items?Purchase=0'],
		['GET', '/v1/accounts/members'],
	])(
		'an OAuth token without the scope: %s %s answers "{error_code} - {description}"',
		async (method, path) => {
			const body =
				method === 'POST'
					? path.includes('import')
						? [{ Address: '1 Main St' }]
						: { ListName: 'x', ListType: 'static' }
					: undefined;
			const refused = expectError(
				await sb.api(method, path, { token: TOKENS.oauthDenied, body }),
				403,
			);
			expect(refused.error).toMatch(/^[a-z_]+ - \S.*$/);
		},
	);
});

describe("404: not found, another account's, or hidden", () => {
	test("another account's list is 404 on every list route and stays as it was", async () => {
		const listId = await sb.createList({ ListName: 'Private', ListType: 'static' });
		await sb.ok('PUT', `/v1/lists/${listId}/items`, {
			body: { Criteria: [{ name: 'PropID', value: ['P000001'] }] },
		});
		const other = { token: TOKENS.second };
		const attempts: Array<[string, string, unknown?]> = [
			['GET', `/v1/lists/${listId}`],
			['PATCH', `/v1/lists/${listId}`, { ListName: 'Mine now' }],
			['GET', `/v1/lists/${listId}/items`],
			['PUT', `/v1/lists/${listId}/items`, { Criteria: [{ name: 'PropID', value: ['P000002'] }] }],
			['DELETE', `/v1/lists/${listId}/items/P000001`],
			['GET', `/v1/lists/${listId}/automations`],
			['PUT', `/v1/lists/${listId}/automations`, { isEnabled: 1, Triggers: 'New Matches' }],
			['GET', `/v1/lists/${listId}/import/items`],
			['POST', `/v1/lists/${listId}/import/items?Purchase=0`, [{ Address: '1 A St' }]],
			['DELETE', `/v1/lists/${listId}`],
		];
		for (const [method, path, body] of attempts) {
			const answer = await sb.api(method, path, { ...other, body });
			expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 });
			expectError(answer, 404, 'Resource does not exist for given id');
		}
		expect((await sb.ok('GET', '/v1/lists', other)).results).toEqual([]);
		expect((await sb.ok('GET', `/v1/lists/${listId}`)).results[0]).toMatchObject({
			ListName: 'Private',
			TotalCount: '1',
		});
		expect((await sb.ok('GET', `/v1/lists/${listId}/items`)).results).toEqual([
			{ PropID: 'P000001' },
		]);
		expect((await sb.ok('GET', `/v1/lists/${listId}/automations`)).results[0].isEnabled).toBe(0);
	});

	test('an unknown PropID, PersonKey, ListID or path', async () => {
		expectError(
			await sb.api('GET', '/v1/properties/P999999?Purchase=0'),
			404,
			'Resource does not exist for given id',
		);
		expectError(await sb.api('GET', '/v1/properties/not-a-prop?Purchase=0'), 404);
		expectError(await sb.api('GET', '/v1/properties/P999999/persons?Purchase=0'), 404);
		expectError(await sb.api('POST', '/v1/persons/K999999A/Email?Purchase=0'), 404);
		expectError(await sb.api('GET', '/v1/lists/987654'), 404);
		expectError(await sb.api('GET', '/v1/lists/abc'), 404);
		expectError(await sb.api('GET', '/v1/nothing-here'), 404);
	});

	test('the import and webhook routes answer 404 without credentials, hiding that they exist', async () => {
		const listId = await sb.createList({
			ListName: 'Imports',
			ListType: 'import',
			ImportSource: 'api',
		});
		const imported = await sb.ok('POST', `/v1/lists/${listId}/import/items?Purchase=1`, {
			body: [{ Address: '1 Nowhere Rd' }],
		});
		const itemId = imported.results[0].ListImportItemID;
		const { results } = await sb.ok('POST', '/v1/integrations/webhooks', {
			body: { HookUrl: 'http://127.0.0.1:9/x', WebhookName: 'w' },
		});
		const hidden: Array<[string, string, unknown?]> = [
			['POST', `/v1/lists/${listId}/import/items?Purchase=1`, [{ Address: '2 Nowhere Rd' }]],
			['GET', `/v1/lists/${listId}/import/items`],
			['PATCH', `/v1/lists/${listId}/import/items/${itemId}`, { PropID: 'P000001' }],
			['DELETE', `/v1/lists/${listId}/import/items/${itemId}`],
			['GET', '/v1/integrations/webhooks'],
			['POST', '/v1/integrations/webhooks', { HookUrl: 'http://127.0.0.1:9/y', WebhookName: 'v' }],
			['DELETE', `/v1/integrations/webhooks/${results[0].WebhookID}`],
		];
		for (const [method, path, body] of hidden) {
			const answer = await sb.api(method, path, { token: null, body });
			expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 });
			expectError(answer, 404, 'Resource does not exist for given id');
		}
		for (const body of [
			{},
			{ HookUrl: 5 },
			{ HookUrl: 'http://127.0.0.1:9/z', WebhookName: 'u', Colour: 'red' },
		]) {
			expectError(
				await sb.api('POST', '/v1/integrations/webhooks', { token: null, body }),
				404,
				'Resource does not exist for given id',
			);
		}
		for (const [method, path] of [
			['POST', `/v1/lists/${listId}/import/items?Purchase=1`],
			['PATCH', `/v1/lists/${listId}/import/items/${itemId}`],
			['POST', '/v1/integrations/webhooks'],
		]) {
			const response = await fetch(`${sb.url}${path}`, {
				method,
				headers: { 'content-type': 'application/json' },
				body: '[{"Address": ',
			});
			expectError(
				{ status: response.status, headers: response.headers, body: await response.json() },
				404,
			);
		}
		expect(
			(await sb.ok('GET', `/v1/lists/${listId}/import/items`)).results.map(
				(item: Json) => item.ListImportItemID,
			),
		).toEqual([itemId]);
		expect((await sb.ok('GET', '/v1/integrations/webhooks')).results).toHaveLength(1);
	});
});

describe('faults injected with /_sandbox/faults', () => {
	const fault = (body: Record<string, unknown>) =>
		sb.ok('POST', '/_sandbox/faults', { token: null, body });

	test('429 with Retry-After for the next N matching calls, then normal answers', async () => {
		await fault({ path: '/v1/lists', status: 429, retryAfter: 7, count: 2 });
		for (let i = 0; i < 2; i++) {
			const answer = await sb.api('GET', '/v1/lists');
			expect(answer.status).toBe(429);
			expect(answer.headers.get('retry-after')).toBe('7');
			expectError(answer, 429);
		}
		expect((await sb.api('GET', '/v1/lists')).status).toBe(200);
	});

	test('503 only on the given path and method', async () => {
		await fault({ path: '/v1/properties', method: 'POST', status: 503, count: 1 });
		expect((await sb.api('GET', '/v1/lists')).status).toBe(200);
		expect((await sb.api('GET', '/v1/properties/P000001?Purchase=0')).status).toBe(200);
		expectError(
			await sb.api('POST', '/v1/properties?Purchase=0', { body: { Criteria: STATE_OR } }),
			503,
		);
		expect(
			(await sb.api('POST', '/v1/properties?Purchase=0', { body: { Criteria: STATE_OR } })).status,
		).toBe(200);
	});

	test('drop loses the connection without an answer, and the call has no effect', async () => {
		await fault({ path: '/v1/lists', method: 'POST', drop: true, count: 1 });
		await expect(
			call(sb.url, 'POST', '/v1/lists', { body: { ListName: 'Lost', ListType: 'static' } }),
		).rejects.toThrow();
		expect((await sb.ok('GET', '/v1/lists')).results).toEqual([]);
		expect(
			(await sb.api('POST', '/v1/lists', { body: { ListName: 'Kept', ListType: 'static' } }))
				.status,
		).toBe(200);
	});

	test('DELETE /_sandbox/faults clears pending faults', async () => {
		await fault({ path: '/v1/accounts', status: 503, count: 5 });
		await sb.ok('DELETE', '/_sandbox/faults', { token: null });
		expect((await sb.api('GET', '/v1/accounts/members')).status).toBe(200);
	});

	test('a fault needs a path and something to do', async () => {
		expectError(
			await sb.api('POST', '/_sandbox/faults', { token: null, body: { status: 503 } }),
			400,
		);
		expectError(
			await sb.api('POST', '/_sandbox/faults', { token: null, body: { path: '/v1/lists' } }),
			400,
		);
	});

	test('a fault with query parameters strikes only calls that carry them: the purchase, not the quote', async () => {
		await fault({
			path: '/v1/properties/P000002',
			method: 'GET',
			query: { Purchase: '1' },
			status: 503,
			count: 1,
		});
		expect((await sb.api('GET', '/v1/properties/P000002?Purchase=0')).status).toBe(200);
		expect((await sb.api('GET', '/v1/properties/P000003?Purchase=1')).status).toBe(200);
		const before = await sb.charges();
		expectError(await sb.api('GET', '/v1/properties/P000002?Fields=PropID&Purchase=1'), 503);
		expect(await sb.charges()).toEqual(before);
		expect((await sb.api('GET', '/v1/properties/P000002?Purchase=1')).status).toBe(200);
	});

	test('a status fault "after" the action: the call is done and charged, then answered with the status', async () => {
		await fault({
			path: '/v1/properties/P000004',
			query: { Purchase: '1' },
			when: 'after',
			status: 502,
			retryAfter: 3,
			count: 1,
		});
		const before = await sb.charges();
		const answer = await sb.api('GET', '/v1/properties/P000004?Purchase=1');
		expectError(answer, 502);
		expect(answer.headers.get('retry-after')).toBe('3');
		expect(answer.body).not.toHaveProperty('results');
		const after = await sb.charges();
		expect(after.credits).toBe(before.credits - 1);
		expect(after.log.slice(before.log.length)).toEqual([
			expect.objectContaining({ kind: 'property', quantity: 1, what: 'property P000004' }),
		]);
	});

	test('a dropped connection before the action, also on a call without a body: nothing bought, nothing charged', async () => {
		await fault({ path: '/v1/persons/K000006A/Email', method: 'POST', drop: true, count: 1 });
		const before = await sb.charges();
		await expect(call(sb.url, 'POST', '/v1/persons/K000006A/Email?Purchase=1')).rejects.toThrow();
		expect(await sb.charges()).toEqual(before);
		expect(
			(await sb.ok('GET', '/v1/properties/P000006/persons?Purchase=1&Fields=Email')).results[0]
				.Email,
		).toEqual([]);
	});

	test('a dropped connection "after" the action: no answer, but the purchase happened', async () => {
		await fault({
			path: '/v1/persons/K000005A/Phone',
			method: 'POST',
			query: { Purchase: '1' },
			when: 'after',
			drop: true,
			count: 1,
		});
		const before = await sb.charges();
		await expect(call(sb.url, 'POST', '/v1/persons/K000005A/Phone?Purchase=1')).rejects.toThrow();
		expect((await sb.charges()).log.slice(before.log.length)).toEqual([
			expect.objectContaining({ kind: 'phone', quantity: 1 }),
		]);
		expectError(
			await sb.api('POST', '/v1/persons/K000005A/Phone?Purchase=1'),
			400,
			'Phone already purchased',
		);
	});

	test('latency "after" the action: a client that gives up first still finds the list created', async () => {
		await fault({ path: '/v1/lists', method: 'POST', when: 'after', latencyMs: 1500, count: 1 });
		const started = Date.now();
		const created = fetch(`${sb.url}/v1/lists`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${TOKENS.main}`, 'content-type': 'application/json' },
			body: JSON.stringify({ ListName: 'Slow', ListType: 'static' }),
			signal: AbortSignal.timeout(300),
		});
		await expect(created).rejects.toThrow();
		expect(Date.now() - started).toBeLessThan(1500);
		expect((await sb.ok('GET', '/v1/lists')).results.map((list: Json) => list.ListName)).toEqual([
			'Slow',
		]);
	});

	test('latency "before" the action delays the answer; "before" is the default', async () => {
		await fault({ path: '/v1/accounts/members', latencyMs: 400, count: 1 });
		await fault({ path: '/v1/accounts/members', when: 'before', latencyMs: 400, count: 1 });
		for (let i = 0; i < 2; i++) {
			const started = Date.now();
			expect((await sb.api('GET', '/v1/accounts/members')).status).toBe(200);
			expect(Date.now() - started).toBeGreaterThanOrEqual(390);
		}
	});

	test('skip lets that many matching calls through before the fault strikes; body replaces the error object', async () => {
		const quote = { results: [], totalCost: '0.00', resultCount: 0, quantityFreeRemaining: 100 };
		await fault({
			path: '/v1/properties/P000007',
			query: { Purchase: '0' },
			skip: 2,
			status: 200,
			body: quote,
			count: 1,
		});
		for (let i = 0; i < 2; i++)
			expect((await sb.ok('GET', '/v1/properties/P000007?Purchase=0')).resultCount).toBe(1);
		const struck = await sb.api('GET', '/v1/properties/P000007?Purchase=0');
		expect({ status: struck.status, body: struck.body }).toEqual({ status: 200, body: quote });
		expect((await sb.ok('GET', '/v1/properties/P000007?Purchase=0')).resultCount).toBe(1);
	});

	test('a fault is refused when a field is unknown or of the wrong kind', async () => {
		const refused = [
			{ path: '/v1/lists', status: 503, when: 'during' },
			{ path: '/v1/lists', status: 503, query: 'Purchase=1' },
			{ path: '/v1/lists', status: 503, query: { Purchase: { value: 1 } } },
			{ path: '/v1/lists', status: 'bad' },
			{ path: '/v1/lists', status: 99 },
			{ path: '/v1/lists', latencyMs: -5 },
			{ path: '/v1/lists', drop: 'yes' },
			{ path: '/v1/lists', status: 503, colour: 'red' },
			{ path: '/v1/lists', status: 503, skip: -1 },
			{ path: '/v1/lists', drop: true, body: { error: 'x' } },
		];
		for (const body of refused) {
			const answer = await sb.api('POST', '/_sandbox/faults', { token: null, body });
			expect({ body, status: answer.status }).toEqual({ body, status: 400 });
		}
		expect((await sb.api('GET', '/v1/lists')).status).toBe(200);
	});
});
