import { PROTOTYPE_KEYS } from '../support/prototypeKeys';
import { expectError, TOKENS, useSandbox, type Json } from './helpers';

/**
 * Names a client gives (fields, fieldsets, criteria, automation fields, PropIDs) that are also
 * keys every JavaScript object inherits: the sandbox must treat them as the unknown names they are.
 */
const sb = useSandbox();

const STATE_OR = [{ name: 'State', value: ['OR'] }];

describe('an inherited key is an unknown name, never a 500', () => {
	test.each(PROTOTYPE_KEYS)(
		'Fields=%s on every route that takes Fields answers 400 "Invalid Fields"',
		async (key) => {
			const dynamic = await sb.createList({
				ListName: 'Some',
				Criteria: [{ name: 'PropID', value: ['P000001'] }],
			});
			const imports = await sb.createList({
				ListName: 'Imports',
				ListType: 'import',
				ImportSource: 'api',
			});
			const routes: Array<[string, string, unknown?]> = [
				['GET', '/v1/lists'],
				['GET', `/v1/lists/${dynamic}`],
				['GET', `/v1/lists/${dynamic}/items`],
				['GET', '/v1/properties/P000001?Purchase=1'],
				['POST', '/v1/properties?Purchase=1', { Criteria: STATE_OR }],
				['GET', '/v1/properties/P000001/persons?Purchase=1'],
				['GET', '/v1/persons/K000001A/relatives?Purchase=1'],
				['GET', `/v1/lists/${imports}/import/items`],
				['POST', `/v1/lists/${imports}/import/items?Purchase=1`, [{ Address: '1 Main St' }]],
				['GET', '/v1/integrations/webhooks'],
			];
			for (const [method, path, body] of routes) {
				const answer = await sb.api(
					method,
					`${path}${path.includes('?') ? '&' : '?'}Fields=${key}`,
					{ body },
				);
				expect({ method, path, status: answer.status }).toEqual({ method, path, status: 400 });
				expect(expectError(answer, 400, 'Invalid Fields').message).toContain(key);
			}
			expect((await sb.charges()).log).toEqual([]);
		},
	);

	test.each(PROTOTYPE_KEYS)(
		'a criterion named %s is "Unexpected Criterion", also nested',
		async (name) => {
			expectError(
				await sb.api('POST', '/v1/properties?Purchase=0', {
					body: { Criteria: [{ name, value: ['x'] }] },
				}),
				400,
				'Unexpected Criterion',
			);
			expectError(
				await sb.api('POST', '/v1/properties?Purchase=0', {
					body: { Criteria: [{ name: 'PropertyType', value: [{ name, value: ['x'] }] }] },
				}),
				400,
				'Unexpected Criterion',
			);
			expectError(
				await sb.api('POST', '/v1/lists', {
					body: { ListName: 'x', Criteria: [{ name, value: ['x'] }] },
				}),
				400,
				'Unexpected Criterion',
			);
			expect((await sb.ok('GET', '/v1/lists')).results).toEqual([]);
		},
	);

	test('an automation refuses inherited keys as fields and stores only its own fields', async () => {
		const listId = await sb.createList({ ListName: 'Automated', ListType: 'static' });
		const stored = { isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 2 };
		await sb.ok('PUT', `/v1/lists/${listId}/automations`, { body: stored });
		for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
			const answer = await sb.api('PUT', `/v1/lists/${listId}/automations`, {
				body: { ...stored, [key]: 'x' },
			});
			expect({ key, status: answer.status }).toEqual({ key, status: 400 });
			expect(expectError(answer, 400, 'Unexpected payload field').message).toContain(key);
		}
		const automation = (await sb.ok('GET', `/v1/lists/${listId}/automations`)).results[0];
		expect(automation).toMatchObject(stored);
		for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf'])
			expect(Object.hasOwn(automation, key)).toBe(false);
	});

	test('an automation field of the wrong type, an object Triggers among them, answers 400', async () => {
		const listId = await sb.createList({ ListName: 'Automated', ListType: 'static' });
		for (const Triggers of [{}, { toString: 1 }, { valueOf: 'New Matches' }, ['New Matches'], 1]) {
			const answer = await sb.api('PUT', `/v1/lists/${listId}/automations`, {
				body: { isEnabled: 1, Triggers },
			});
			expect({ Triggers, status: answer.status }).toEqual({ Triggers, status: 400 });
			expectError(answer, 400, 'Invalid automation');
		}
		expect((await sb.ok('GET', `/v1/lists/${listId}/automations`)).results[0].isEnabled).toBe(0);
	});

	test.each(PROTOTYPE_KEYS)(
		'DELETE /v1/lists/{ListID}/items/%s is 404 and removes nothing',
		async (key) => {
			const listId = await sb.createList({ ListName: 'Static', ListType: 'static' });
			await sb.ok('PUT', `/v1/lists/${listId}/items`, {
				body: { Criteria: [{ name: 'PropID', value: ['P000001', 'P000002'] }] },
			});
			expectError(await sb.api('DELETE', `/v1/lists/${listId}/items/${key}`), 404);
			expect(
				(await sb.ok('GET', `/v1/lists/${listId}/items`)).results.map((item: Json) => item.PropID),
			).toEqual(['P000001', 'P000002']);
			expect((await sb.ok('GET', `/v1/lists/${listId}`)).results[0].TotalCount).toBe('2');
		},
	);

	test('IDs in an automation that are inherited keys name nothing: no list is changed, no webhook called', async () => {
		const listId = await sb.createList({ ListName: 'Source', ListType: 'static', isMonitored: 1 });
		await sb.ok('PUT', `/v1/lists/${listId}/automations`, {
			body: {
				isEnabled: 1,
				Triggers: 'New Matches',
				AddToLists: 'constructor,toString',
				RemoveFromLists: 'valueOf',
				ExportToWebhookIDs: 'constructor,hasOwnProperty',
			},
		});
		expect(
			await sb.ok('PUT', `/v1/lists/${listId}/items`, {
				body: { Criteria: [{ name: 'PropID', value: ['P000001'] }] },
			}),
		).toEqual({ updateCount: 1 });
		expect((await sb.ok('GET', '/_sandbox/deliveries?wait=1', { token: null })).results).toEqual(
			[],
		);
		expect((await sb.ok('GET', '/v1/lists')).results.map((list: Json) => list.ListID)).toEqual([
			listId,
		]);
	});

	test('a simulated listing status or foreclosure stage named like an inherited key moves on like any unknown one', async () => {
		const change = (body: Json) =>
			sb.ok('POST', '/_sandbox/simulate/change', {
				token: null,
				body: { PropID: 'P000031', ...body },
			});
		await change({ change: 'listing', to: 'constructor' });
		expect((await change({ change: 'listing' })).changes).toEqual([
			'Listing Status:constructor:Active',
		]);
		await change({ change: 'foreclosure', to: 'toString' });
		expect((await change({ change: 'foreclosure' })).changes).toEqual([
			'Foreclosure Status:toString:Preforeclosure',
		]);
	});
});

describe('criteria nested too deep', () => {
	/** `{"Criteria": [...]}` with PropertyType inside PropertyType `depth` times, as text (too deep for JSON.stringify). */
	const nestedBody = (depth: number, extra = ''): string =>
		`{${extra}"Criteria": [${'{"name": "PropertyType", "value": ['.repeat(depth)}{"name": "PType", "value": ["SFR"]}${']}'.repeat(depth)}]}`;
	const send = async (method: string, path: string, body: string) => {
		const response = await fetch(`${sb.url}${path}`, {
			method,
			headers: { Authorization: `Bearer ${TOKENS.main}`, 'content-type': 'application/json' },
			body,
		});
		return { status: response.status, headers: response.headers, body: await response.json() };
	};

	test('criteria nested 5,000 deep answer 400 wherever Criteria are taken, and change nothing', async () => {
		const listId = await sb.createList({ ListName: 'Static', ListType: 'static' });
		for (const [method, path, body] of [
			['POST', '/v1/properties?Purchase=1', nestedBody(5000)],
			['POST', '/v1/lists', nestedBody(5000, '"ListName": "Deep", ')],
			['PUT', `/v1/lists/${listId}/items`, nestedBody(5000)],
		] as const) {
			const answer = await send(method, path, body);
			expect({ method, path, status: answer.status }).toEqual({ method, path, status: 400 });
			expect(expectError(answer, 400, 'Invalid Criteria').message).toMatch(/nested/);
		}
		expect((await sb.ok('GET', '/v1/lists')).results).toHaveLength(1);
		expect((await sb.charges()).log).toEqual([]);
	});

	test('the compound PropertyType with PType and AdvancedPropertyType inside is still taken', async () => {
		const body = await sb.ok('POST', '/v1/properties?Purchase=0', {
			body: {
				Criteria: [
					{
						name: 'PropertyType',
						value: [
							{ name: 'PType', value: ['SFR'] },
							{ name: 'AdvancedPropertyType', value: ['Condominium'] },
						],
					},
				],
			},
		});
		expect(body.totalResultCount).toBeGreaterThan(0);
	});
});

describe('a property named more than once is counted once', () => {
	test('a search naming the same PropID five times returns and charges it once', async () => {
		const criteria = [
			{ name: 'PropID', value: ['P000021', 'P000021', 'P000021', 'P000021', 'P000021'] },
		];
		const quote = await sb.ok('POST', '/v1/properties?Purchase=0', {
			body: { Criteria: criteria },
		});
		expect(quote).toMatchObject({ totalResultCount: 1, resultCount: 1 });
		const before = await sb.charges();
		const bought = await sb.ok('POST', '/v1/properties?Purchase=1&Fields=PropID', {
			body: { Criteria: criteria },
		});
		expect(bought.results).toEqual([{ PropID: 'P000021' }]);
		expect(bought).toMatchObject({ totalResultCount: 1, resultCount: 1 });
		const after = await sb.charges();
		expect(after.credits).toBe(before.credits - 1);
		expect(after.log.slice(before.log.length)).toEqual([
			expect.objectContaining({ kind: 'property', quantity: 1 }),
		]);
	});

	test('adding the same PropID five times adds it once and fires one New Match', async () => {
		const listId = await sb.createList({ ListName: 'Static', ListType: 'static', isMonitored: 1 });
		await sb.ok('PUT', `/v1/lists/${listId}/automations`, {
			body: { isEnabled: 1, Triggers: 'New Matches', DailyEmailMemberIDs: 'M101' },
		});
		const added = await sb.ok('PUT', `/v1/lists/${listId}/items`, {
			body: {
				Criteria: [
					{ name: 'PropID', value: ['P000022', 'P000022', 'P000022', 'P000022', 'P000022'] },
				],
			},
		});
		expect(added).toEqual({ updateCount: 1 });
		const outbox = (await sb.ok('GET', '/_sandbox/outbox', { token: null })).results.filter(
			(entry: Json) => entry.ListID === listId,
		);
		expect(outbox).toEqual([
			expect.objectContaining({ PropID: 'P000022', action: 'daily e-mail' }),
		]);
	});
});

describe('names at the edges', () => {
	test('a list name is cut at 50 characters, never inside an emoji', async () => {
		const listId = await sb.createList({ ListName: `${'a'.repeat(49)}😀tail`, ListType: 'static' });
		const read = await sb.api('GET', `/v1/lists/${listId}?Fields=ListName`);
		expect((read.body as { results: Array<{ ListName: string }> }).results[0].ListName).toBe(
			`${'a'.repeat(49)}😀`,
		);
	});
});
