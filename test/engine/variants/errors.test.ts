import { TOKENS } from '../../support/harness';
import {
	control,
	createList,
	listRef,
	propertyPurchase,
	run,
	runOk,
	sandboxCharges,
	useEngineSandbox,
	useVariants,
} from '../../support/helpers';

// Errors and 429 against the sandbox's variants (docs/api.md, "Every guess"): an error body
// without `eventid` (`no-eventid`), a 429 without `Retry-After` (`no-retry-after`).
const sb = useEngineSandbox();

afterEach(async () => {
	await useVariants(sb, []);
	await control(sb, 'DELETE', '/_sandbox/faults');
});

/** The next `count` calls to `path` (with `query`) answered 429, with Retry-After `retryAfter` unless the variant strips it. */
const tooManyRequests = (path: string, count: number, query: Record<string, string> = {}) =>
	control(sb, 'POST', '/_sandbox/faults', { path, query, status: 429, retryAfter: '1', count });

describe('no-eventid: an error without eventid and X-Prop-Request-Id', () => {
	test('List > Get of a missing list says which list, with no troubleshooting code', async () => {
		await useVariants(sb, ['no-eventid']);
		const result = await run(sb, { resource: 'list', operation: 'get', listId: listRef(987654) });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toContain('987654');
		expect(result.error?.description ?? '').not.toMatch(/Troubleshooting code|undefined/);
	});
});

describe('no-retry-after: a 429 without Retry-After', () => {
	test('a read is sent again after its backoff and succeeds', async () => {
		const listId = await createList(sb, { listName: 'Busy service', listType: 'static' });
		await useVariants(sb, ['no-retry-after']);
		await tooManyRequests(`/v1/lists/${listId}`, 2);
		const from = sb.requests.length;
		const [list] = await runOk(sb, { resource: 'list', operation: 'get', listId: listRef(listId) });
		expect(list.ListID).toBe(listId);
		expect(sb.requests.slice(from).filter((r) => r.path === `/v1/lists/${listId}`)).toHaveLength(3);
	});

	test('a purchase answered 429 is never sent again: the item fails, nothing charged, and says so', async () => {
		await useVariants(sb, ['no-retry-after']);
		await tooManyRequests('/v1/properties/P000901', 1, { Purchase: '1' });
		const before = await sandboxCharges(sb, TOKENS.second);
		const from = sb.requests.length;
		const result = await run(sb, propertyPurchase('P000901'), undefined, TOKENS.second);
		expect(result.error?.httpCode).toBe('429');
		expect(result.error?.description).toMatch(/not charged|nothing was charged|charged nothing/i);
		const purchases = sb.requests
			.slice(from)
			.filter((r) => r.path === '/v1/properties/P000901' && r.query.get('Purchase') === '1');
		expect(purchases).toHaveLength(1);
		expect(await sandboxCharges(sb, TOKENS.second)).toEqual(before);
	});
});

describe('429 with Retry-After (the sandbox by default)', () => {
	test('a read waits as told and succeeds', async () => {
		const listId = await createList(sb, { listName: 'Paced service', listType: 'static' });
		await tooManyRequests(`/v1/lists/${listId}`, 1);
		const [list] = await runOk(sb, { resource: 'list', operation: 'get', listId: listRef(listId) });
		expect(list.ListID).toBe(listId);
	});
});
