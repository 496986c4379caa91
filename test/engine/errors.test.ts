import { runNode, TOKENS } from '../support/harness';
import { listRef, run, useEngineSandbox } from '../support/helpers';

/** Errors of the service as a user of the node sees them, and the transport's retry rules. */
const sb = useEngineSandbox();

const listMany = { resource: 'list', operation: 'getMany', returnAll: true };

test('401: an invalid token, and the token appears nowhere in the error', async () => {
	const result = await run(sb, listMany, undefined, 'secret-token-do-not-leak');
	expect(result.error?.httpCode).toBe('401');
	expect(result.error?.message).toBe('PropRadar does not accept the access token');
	expect(result.error?.description).toContain('update the Access Token');
	expect(JSON.stringify(result.error)).not.toContain('secret-token-do-not-leak');
	expect(sb.requests.at(-1)!.authorization).toBe('Bearer secret-token-do-not-leak');
});

test('403: an inactive subscription', async () => {
	const result = await run(sb, listMany, undefined, TOKENS.inactive);
	expect(result.error?.httpCode).toBe('403');
	expect(result.error?.description).toContain('subscription is inactive');
	expect(result.error?.description).toContain('You are not authorized to use this service');
	expect(JSON.stringify(result.error)).not.toContain(TOKENS.inactive);
});

test("400: the service's own words and the troubleshooting code", async () => {
	const result = await run(sb, {
		resource: 'property',
		operation: 'search',
		criteriaMode: 'json',
		criteriaJson: '[{"name":"NoSuchCriterion","value":[1]}]',
		chargeMode: 'preview',
	});
	expect(result.error?.httpCode).toBe('400');
	expect(result.error?.message).toContain('Unexpected Criterion');
	expect(result.error?.description).toMatch(/Troubleshooting code: \w{3}-\w{3}-\w{3}/);
});

test('402: a broke account is told nothing was charged and how to preview', async () => {
	const result = await run(
		sb,
		{
			resource: 'property',
			operation: 'get',
			propId: 'P000001',
			chargeMode: 'purchase',
			maxCost: 100,
		},
		undefined,
		TOKENS.broke,
	);
	expect(result.error?.httpCode).toBe('402');
	expect(result.error?.description).toContain('Nothing was charged');
	expect(result.error?.description).toContain('Preview Cost (Free)');
});

test('404: an unknown property', async () => {
	const result = await run(sb, {
		resource: 'property',
		operation: 'get',
		propId: 'NOPE-1',
		chargeMode: 'preview',
	});
	expect(result.error?.httpCode).toBe('404');
	expect(result.error?.message).toBe(
		'Property NOPE-1 does not exist or belongs to another account',
	);
});

test("an error body without eventid (issue 59): the service's words, the answer's request id as the code, and a refused purchase charged nothing", async () => {
	sb.faults.push({
		pathPrefix: '/v1/properties/P000004',
		query: { Purchase: '1' },
		count: 1,
		status: 404,
		headers: { 'x-prop-request-id': 'req-without-eventid' },
		body: { error: 'Resource does not exist for given id', message: 'No such property.' },
	});
	const result = await run(sb, {
		resource: 'property',
		operation: 'get',
		propId: 'P000004',
		chargeMode: 'purchase',
		maxCost: 100,
	});
	expect(result.error?.httpCode).toBe('404');
	expect(result.error?.message).toBe(
		'Property P000004 does not exist or belongs to another account',
	);
	expect(result.error?.description).toContain(
		'PropRadar says: Resource does not exist for given id: No such property.',
	);
	expect(result.error?.description).toContain('nothing was charged');
	expect(result.error?.description).toContain('Troubleshooting code: req-without-eventid.');
	expect(result.error?.description).not.toContain('undefined');
	// n8n's error view shows the answer: its status and the service's error object.
	expect(result.error?.context?.data).toEqual({
		error: 'Resource does not exist for given id',
		message: 'No such property.',
	});
});

describe('retries', () => {
	test('a read is repeated after 503 and 429 (Retry-After), then succeeds', async () => {
		sb.faults.push({ pathPrefix: '/v1/lists', method: 'GET', count: 1, status: 503 });
		sb.faults.push({
			pathPrefix: '/v1/lists',
			method: 'GET',
			count: 1,
			status: 429,
			headers: { 'retry-after': '0' },
		});
		const before = sb.sent('/v1/lists', 'GET').length;
		const result = await run(sb, listMany);
		expect(result.error).toBeUndefined();
		expect(sb.sent('/v1/lists', 'GET').length - before).toBe(3);
	});

	test('a 429 without Retry-After (issue 59) is waited out longer than a failure: a read answered it four times still succeeds', async () => {
		sb.faults.push({
			pathPrefix: '/v1/lists',
			method: 'GET',
			count: 4,
			status: 429,
			headers: { 'retry-after': '' },
			body: { error: 'Too Many Requests' },
		});
		const before = sb.sent('/v1/lists', 'GET').length;
		const started = Date.now();
		const result = await run(sb, listMany);
		expect(result.error).toBeUndefined();
		expect(sb.sent('/v1/lists', 'GET').length - before).toBe(5);
		// 0.5 s, then 1, 2 and 4 s: a service that gave no pace is given time.
		expect(Date.now() - started).toBeGreaterThanOrEqual(7_000);
	});

	test('a 429 on a purchase is not sent again, and nothing was charged', async () => {
		sb.faults.push({
			pathPrefix: '/v1/properties/P000003',
			query: { Purchase: '1' },
			count: 1,
			status: 429,
			headers: { 'retry-after': '' },
			body: { error: 'Too Many Requests' },
		});
		const result = await run(sb, {
			resource: 'property',
			operation: 'get',
			propId: 'P000003',
			chargeMode: 'purchase',
			maxCost: 100,
		});
		expect(result.error?.httpCode).toBe('429');
		expect(result.error?.message).toBe('PropRadar is rate limiting this account');
		expect(result.error?.description).toContain('nothing was charged');
		const purchases = sb
			.sent('/v1/properties/P000003')
			.filter((r) => r.query.get('Purchase') === '1');
		expect(purchases).toHaveLength(1);
	});

	test('a read gives up after four attempts with a message about the service', async () => {
		sb.faults.push({ pathPrefix: '/v1/lists', method: 'GET', count: 4, status: 500 });
		const before = sb.sent('/v1/lists', 'GET').length;
		const result = await run(sb, listMany);
		expect(result.error?.message).toBe('The PropRadar service failed');
		expect(sb.sent('/v1/lists', 'GET').length - before).toBe(4);
	});

	test('a dropped connection on a read is retried', async () => {
		sb.faults.push({ pathPrefix: '/v1/lists', method: 'GET', count: 1, drop: true });
		const before = sb.sent('/v1/lists', 'GET').length;
		const result = await run(sb, listMany);
		expect(result.error).toBeUndefined();
		expect(sb.sent('/v1/lists', 'GET').length - before).toBe(2);
	});

	test('a create is not repeated after a 503', async () => {
		sb.faults.push({ pathPrefix: '/v1/lists', method: 'POST', count: 1, status: 503 });
		const before = sb.sent('/v1/lists', 'POST').length;
		const result = await run(sb, {
			resource: 'list',
			operation: 'create',
			listName: 'once',
			listType: 'static',
		});
		expect(result.error?.httpCode).toBe('503');
		expect(sb.sent('/v1/lists', 'POST').length - before).toBe(1);
	});

	test('a purchase whose answer is lost is never sent again, and the user is told it may have been charged', async () => {
		sb.faults.push({
			pathPrefix: '/v1/properties/P000002',
			method: 'GET',
			query: { Purchase: '1' },
			count: 1,
			dropAfterForward: true,
		});
		const result = await run(sb, {
			resource: 'property',
			operation: 'get',
			propId: 'P000002',
			chargeMode: 'purchase',
			maxCost: 100,
		});
		const purchases = sb
			.sent('/v1/properties/P000002')
			.filter((r) => r.query.get('Purchase') === '1');
		expect(purchases).toHaveLength(1);
		expect(result.error?.message).toBe(
			'The connection to PropRadar failed during a purchase: it may have been charged',
		);
		expect(result.error?.description).toContain('may have been charged');
	});
});

test('a list picked by ID that is not a number is refused before sending', async () => {
	const before = sb.requests.length;
	const result = await run(
		sb,
		{
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef('={{ $json.list }}'),
			returnAll: true,
		},
		[{ list: '12a' }],
	);
	expect(result.error?.message).toContain('List: "12a" is not a list ID');
	expect(sb.requests.length).toBe(before);
});

test.each([
	['ftp://127.0.0.1:8787'],
	['127.0.0.1:8787'],
	['http://'],
	['http://127.0.0.1:8787?x=1'],
])(
	'a Base URL %p that is no web address is refused naming the field, before anything is sent',
	async (baseUrl) => {
		const before = sb.requests.length;
		const result = await runNode(
			{ resource: 'property', operation: 'get', propId: 'P000001', chargeMode: 'preview' },
			{ credentials: { baseUrl, accessToken: TOKENS.main } },
		);
		expect(result.error?.message).toBe(
			'The Base URL of the PropRadar credential is not a web address',
		);
		expect(result.error?.description).toContain(
			`Base URL "${baseUrl}": allowed is an http:// or https:// address`,
		);
		expect(result.error?.description).toContain('Nothing was sent.');
		expect(sb.requests.length).toBe(before);
	},
);
