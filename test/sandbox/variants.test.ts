/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { VariantName } from '../../sandbox/types';
import { expectError, useSandbox, type Json } from './helpers';

const sb = useSandbox();

const setVariants = (variants: VariantName[]) =>
	sb.ok('PUT', '/_sandbox/variants', { token: null, body: { variants } });

afterEach(async () => {
	await setVariants([]);
	await sb.api('POST', '/_sandbox/rate-limit', { token: null, body: { perSecond: null } });
});

const QUOTE = '/v1/properties?Purchase=0&Limit=30';
const CRITERIA = { Criteria: [{ name: 'State', value: ['OR'] }] };

describe('variants: switched by a control route, kept by a reset', () => {
	test('PUT sets the variants, GET names them and what each does; a reset keeps them', async () => {
		const set = await setVariants(['money-numbers', 'no-eventid']);
		expect(set.variants).toEqual(['money-numbers', 'no-eventid']);
		expect(Object.keys(set.known)).toContain('short-page');
		await sb.reset();
		expect((await sb.ok('GET', '/_sandbox/variants', { token: null })).variants).toEqual([
			'money-numbers',
			'no-eventid',
		]);
		expect((await setVariants([])).variants).toEqual([]);
	});

	test('an unknown variant is refused, naming the known ones', async () => {
		const refused = expectError(
			await sb.api('PUT', '/_sandbox/variants', { token: null, body: { variants: ['nope'] } }),
			400,
			'Invalid variants',
		);
		expect(refused.message).toMatch(/Unknown variant "nope": use delivery-array, /);
	});
});

describe('variants of the answers', () => {
	test('default: totalCost a string, resultCount and quantityFreeRemaining present', async () => {
		const quote = await sb.ok('POST', QUOTE, { body: CRITERIA });
		expect(quote).toMatchObject({
			totalCost: expect.any(String),
			resultCount: 30,
			quantityFreeRemaining: 100,
		});
	});

	test('money-numbers: totalCost is a number of the same amount', async () => {
		const before = await sb.ok('POST', QUOTE, { body: CRITERIA });
		await setVariants(['money-numbers']);
		const after = await sb.ok('POST', QUOTE, { body: CRITERIA });
		expect(after.totalCost).toBe(Number(before.totalCost));
	});

	test('no-result-count and no-free-remaining leave those fields out', async () => {
		await setVariants(['no-result-count', 'no-free-remaining']);
		const quote = await sb.ok('POST', QUOTE, { body: CRITERIA });
		expect(quote).not.toHaveProperty('resultCount');
		expect(quote).not.toHaveProperty('quantityFreeRemaining');
		expect(quote.totalCost).toEqual(expect.any(String));
	});

	test('extra-fields: the envelope and each record carry a field no document names', async () => {
		await sb.createList({ ListName: 'Extra', ListType: 'static' });
		await setVariants(['extra-fields']);
		const lists = await sb.ok('GET', '/v1/lists');
		expect(lists.ServiceExtra).toBe('envelope');
		expect(lists.results.length).toBeGreaterThan(0);
		for (const list of lists.results as Json[]) expect(list.ServiceExtra).toBe('record');
	});

	test('no-eventid: an error carries no eventid and no X-Prop-Request-Id', async () => {
		await setVariants(['no-eventid']);
		const missing = await sb.api('GET', '/v1/lists/424242');
		expect(missing.status).toBe(404);
		expect(missing.body).toEqual({ error: 'Resource does not exist for given id' });
		expect(missing.headers.get('x-prop-request-id')).toBeNull();
		expect((await sb.api('GET', '/v1/lists', { token: 'not-a-token' })).body).not.toHaveProperty(
			'eventid',
		);
	});

	test('webhook-answer and automation-answer: the record in an object of its own, not in results', async () => {
		const listId = (await sb.ok('POST', '/v1/lists', { body: { ListName: 'Answers' } })).results[0]
			.ListID as number;
		await setVariants(['webhook-answer', 'automation-answer']);
		const created = await sb.ok('POST', '/v1/integrations/webhooks', {
			body: { HookUrl: 'https://example.com/a', WebhookName: 'a' },
		});
		expect(created).toEqual({ webhook: { WebhookID: expect.any(Number) } });
		const automation = await sb.ok('GET', `/v1/lists/${listId}/automations`);
		expect(automation).toEqual({ automation: expect.objectContaining({ Name: 'Answers' }) });
		// Other answers keep their envelope.
		expect(await sb.ok('GET', '/v1/integrations/webhooks')).toHaveProperty('results');
	});

	test('no-retry-after: a 429 of the rate limit or of a fault carries no Retry-After', async () => {
		await sb.ok('POST', '/_sandbox/faults', {
			token: null,
			body: { path: '/v1/lists', status: 429, retryAfter: '3' },
		});
		expect((await sb.api('GET', '/v1/lists')).headers.get('retry-after')).toBe('3');
		await setVariants(['no-retry-after']);
		await sb.ok('POST', '/_sandbox/faults', {
			token: null,
			body: { path: '/v1/lists', status: 429, retryAfter: '3' },
		});
		const faulted = await sb.api('GET', '/v1/lists');
		expect(faulted.status).toBe(429);
		expect(faulted.headers.get('retry-after')).toBeNull();
		await sb.ok('POST', '/_sandbox/rate-limit', {
			token: null,
			body: { perSecond: 0.1, burst: 1 },
		});
		await sb.api('GET', '/v1/lists');
		const limited = await sb.api('GET', '/v1/lists');
		expectError(limited, 429, 'Too Many Requests');
		expect(limited.headers.get('retry-after')).toBeNull();
	});
});

describe('variants of paging', () => {
	test('low-limit: a Limit above 20 is refused with 400 naming the maximum; 20 is taken', async () => {
		await setVariants(['low-limit']);
		const refused = expectError(
			await sb.api('POST', QUOTE, { body: CRITERIA }),
			400,
			'Invalid Limit',
		);
		expect(refused.message).toBe('Limit must be at most 20');
		expect(
			(await sb.ok('POST', '/v1/properties?Purchase=0&Limit=20', { body: CRITERIA })).resultCount,
		).toBe(20);
	});

	test('short-page: a page holds at most 20 records whatever Limit asks, and only those are charged', async () => {
		await setVariants(['short-page']);
		const bought = await sb.ok('POST', '/v1/properties?Purchase=1&Limit=30&Fields=PropID', {
			body: CRITERIA,
		});
		expect(bought.results).toHaveLength(20);
		expect(bought.resultCount).toBe(20);
		const charges = await sb.charges();
		expect(charges.credits).toBe(80);
		expect(charges.balanceCents).toBe(500_000);
	});
});

describe('variants of webhook deliveries', () => {
	let server: Server;
	const received: unknown[] = [];
	beforeEach(async () => {
		received.length = 0;
		server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
				response.end('{}');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	});
	afterEach(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	async function deliveredOnce(variants: VariantName[]): Promise<Json> {
		await setVariants(variants);
		const listId = await sb.createList({ ListName: 'Hooked', ListType: 'static', isMonitored: 1 });
		const { port } = server.address() as AddressInfo;
		await sb.ok('POST', '/v1/integrations/webhooks', {
			body: { HookUrl: `http://127.0.0.1:${port}/hook`, WebhookName: 'hook', Lists: [listId] },
		});
		const fired = await sb.ok('POST', '/_sandbox/simulate/new-match', {
			token: null,
			body: { ListID: listId },
		});
		expect(received).toHaveLength(1);
		return { body: received[0], PropID: fired.PropID, listId };
	}

	test('default: one event is one flat object', async () => {
		const { body, PropID } = await deliveredOnce([]);
		expect(body).toMatchObject({ TriggerType: 'New Match', PropID });
	});

	test('delivery-array: one event comes as a bare array', async () => {
		const { body, PropID } = await deliveredOnce(['delivery-array']);
		expect(body).toEqual([expect.objectContaining({ TriggerType: 'New Match', PropID })]);
	});

	test('delivery-wrapper: the events come in an object, under results', async () => {
		const { body, PropID } = await deliveredOnce(['delivery-wrapper']);
		expect(body).toEqual({
			results: [expect.objectContaining({ TriggerType: 'New Match', PropID })],
		});
	});

	test('delivery-keys: the event kind is named EventType', async () => {
		const { body, PropID } = await deliveredOnce(['delivery-keys']);
		expect(body).toMatchObject({ EventType: 'New Match', PropID });
		expect(body).not.toHaveProperty('TriggerType');
	});

	test('delivery-unknown-kind and extra-fields: another kind name, an unknown field', async () => {
		const { body } = await deliveredOnce(['delivery-unknown-kind', 'extra-fields']);
		expect(body).toMatchObject({ TriggerType: 'Added to List', ServiceExtra: 'event' });
	});
});
