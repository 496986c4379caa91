import { expectError, useSandbox } from './helpers';

const sb = useSandbox();

afterEach(() => sb.api('POST', '/_sandbox/rate-limit', { body: { perSecond: null } }));

describe('rate limit: 429 above a set rate', () => {
	test('above the rate, a call is answered 429 with Retry-After and has no effect; the control routes are never limited', async () => {
		// One request every 10 s, two at once: the third of three quick calls finds the bucket empty.
		expect(
			(await sb.ok('POST', '/_sandbox/rate-limit', { body: { perSecond: 0.1, burst: 2 } }))
				.rateLimit,
		).toEqual({ perSecond: 0.1, burst: 2 });
		const listsBefore = (await sb.ok('GET', '/v1/lists')).results;
		expect((await sb.api('GET', '/v1/lists')).status).toBe(200);
		const refused = await sb.api('POST', '/v1/lists', {
			body: { ListName: 'Refused', ListType: 'static' },
		});
		expectError(refused, 429, 'Too Many Requests');
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(9);
		expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(10);
		expect(await sb.ok('GET', '/_sandbox/rate-limit')).toEqual({
			rateLimit: { perSecond: 0.1, burst: 2 },
			refused: 1,
		});

		await sb.ok('POST', '/_sandbox/rate-limit', { body: { perSecond: null } });
		expect((await sb.ok('GET', '/v1/lists')).results).toEqual(listsBefore);
	});

	test('a bad setting is refused, naming what is allowed', async () => {
		expectError(
			await sb.api('POST', '/_sandbox/rate-limit', { body: { perSecond: 0 } }),
			400,
			'Invalid rate limit',
		);
		expectError(
			await sb.api('POST', '/_sandbox/rate-limit', { body: { perSecond: 5, burst: 1.5 } }),
			400,
			'Invalid rate limit',
		);
		expectError(
			await sb.api('POST', '/_sandbox/rate-limit', { body: { perSecond: 5, every: 1 } }),
			400,
			'Unexpected payload field',
		);
	});
});
