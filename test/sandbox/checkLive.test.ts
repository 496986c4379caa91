/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

import type { VariantName } from '../../sandbox/types';
import { TOKENS, useSandbox, type Json } from './helpers';

// `npm run check:live` (scripts/check-live.mjs) run as a maintainer runs it, in a process of its own,
// against this sandbox as the service: every guess confirmed, each variant named, nothing bought.
const sb = useSandbox();
const SCRIPT = resolve(__dirname, '../../scripts/check-live.mjs');

interface Run {
	code: number;
	stdout: string;
	rows: Array<{ check: string; result: string; detail: string }>;
}

function runCheck(args: string[] = [], personKey = ''): Promise<Run> {
	return new Promise((done) => {
		execFile(
			process.execPath,
			['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', SCRIPT, ...args],
			{
				env: {
					...process.env,
					PROPRADAR_TOKEN: TOKENS.main,
					PROPRADAR_BASE_URL: sb.url,
					PROPRADAR_PERSON_KEY: personKey,
				},
			},
			(error, stdout) => {
				const rows = stdout
					.split('\n')
					.map((line) => /^(.+?)\s{2,}(confirmed|different|not checked)\s*(.*)$/.exec(line))
					.filter((match): match is RegExpExecArray => match !== null)
					.map(([, check, result, detail]) => ({ check: check.trim(), result, detail }));
				done({ code: error ? Number(error.code) : 0, stdout, rows });
			},
		);
	});
}

/** An account as a maintainer's may be: a static list of five, an import list, a webhook, an owner bought. */
async function seedAccount(): Promise<string> {
	const listId = await sb.createList({ ListName: 'Five', ListType: 'static' });
	await sb.ok('PUT', `/v1/lists/${listId}/items`, {
		body: {
			Criteria: [
				{ name: 'PropID', value: ['P000001', 'P000002', 'P000003', 'P000004', 'P000005'] },
			],
		},
	});
	await sb.createList({ ListName: 'Imported', ListType: 'import', ImportSource: 'api' });
	await sb.ok('POST', '/v1/integrations/webhooks', {
		body: { HookUrl: 'http://127.0.0.1:9/hook', WebhookName: 'crm' },
	});
	const owners = await sb.ok('GET', '/v1/properties/P000001/persons?Purchase=1');
	return owners.results[0].PersonKey as string;
}

/** What the script sent: the sandbox's request log from entry `from` on. */
async function sentSince(from: number): Promise<{ requests: Json[] }> {
	const requests = (await sb.ok('GET', '/_sandbox/requests', { token: null })).results.slice(from);
	return { requests };
}

// A read of a list's items marks it viewed (LastViewed): the lists compared are their IDs, names and counts.
const listsNow = async () =>
	(await sb.ok('GET', '/v1/lists')).results.map((list: Json) => [
		list.ListID,
		list.ListName,
		list.TotalCount,
	]);

const isRead = (request: Json) =>
	request.method === 'GET' ||
	(request.method === 'POST' &&
		(request.path === '/v1/properties' ||
			/^\/v1\/persons\/[^/]+\/(Phone|Email)$/.test(request.path)));

test('against the sandbox: every guess confirmed, no Purchase=1, no write, nothing charged', async () => {
	const personKey = await seedAccount();
	const logged = (await sb.ok('GET', '/_sandbox/requests', { token: null })).results.length;
	const before = await sb.charges();
	const run = await runCheck([], personKey);
	expect(run.rows.filter((row) => row.result === 'different')).toEqual([]);
	expect(run.code).toBe(0);
	expect(run.rows.filter((row) => row.result === 'confirmed').length).toBeGreaterThanOrEqual(30);
	expect(run.rows.filter((row) => row.result === 'not checked').map((row) => row.check)).toEqual([
		'POST /v1/lists (create)',
		'POST /v1/lists/{ListID}/import/items (quote)',
		'DELETE /v1/lists/{ListID}',
	]);
	const { requests } = await sentSince(logged);
	expect(requests.length).toBeGreaterThanOrEqual(25);
	expect(
		requests.filter((request: Json) => /(^|&)Purchase=(?!0(&|$))/.test(request.query)),
	).toEqual([]);
	expect(requests.filter((request: Json) => !isRead(request))).toEqual([]);
	expect(await sb.charges()).toEqual(before);
});

test('--with-writes: one temporary import list created, its import quoted, then deleted; nothing bought', async () => {
	await seedAccount();
	const lists = await listsNow();
	const logged = (await sb.ok('GET', '/_sandbox/requests', { token: null })).results.length;
	const before = await sb.charges();
	const run = await runCheck(['--with-writes']);
	expect(run.rows.filter((row) => row.result === 'different')).toEqual([]);
	expect(run.rows.find((row) => row.check === 'DELETE /v1/lists/{ListID}')?.result).toBe(
		'confirmed',
	);
	const { requests } = await sentSince(logged);
	const writes = requests.filter((request: Json) => !isRead(request));
	expect(
		writes.map((request: Json) => `${request.method} ${request.path.replace(/\/\d+/g, '/N')}`),
	).toEqual(['POST /v1/lists', 'POST /v1/lists/N/import/items', 'DELETE /v1/lists/N']);
	expect(writes[1].query).toBe('Purchase=0');
	expect(await listsNow()).toEqual(lists);
	expect(await sb.charges()).toEqual(before);
});

// What each variant makes the check say; `null`: the variant is one the check cannot see (deliveries, 429).
const NAMED: Record<VariantName, RegExp | null> = {
	'money-numbers': /totalCost [\d.]+ \(number\)/,
	'low-limit': /status 400: .*Invalid Limit/,
	'short-page': /quoted 20 of \d+: a page cut short/,
	'no-result-count': /resultCount undefined/,
	'no-free-remaining': /quantityFreeRemaining undefined/,
	'no-total-result-count': /totalResultCount undefined/,
	'no-results-array': /no results array: keys/,
	'extra-fields': /fields the node does not know: ServiceExtra/,
	'no-eventid': /eventid undefined/,
	'no-retry-after': null,
	'delivery-array': null,
	'delivery-wrapper': null,
	'delivery-keys': null,
	'delivery-unknown-kind': null,
	'webhook-answer': null,
	'automation-answer': /no results array: keys automation/,
};

describe('against each variant, the difference named', () => {
	test.each(Object.entries(NAMED) as Array<[VariantName, RegExp | null]>)(
		'%s',
		async (variant, named) => {
			const personKey = await seedAccount();
			await sb.ok('PUT', '/_sandbox/variants', { token: null, body: { variants: [variant] } });
			try {
				const run = await runCheck([], personKey);
				const different = run.rows.filter((row) => row.result === 'different');
				if (named === null) {
					expect(different).toEqual([]);
					expect(run.stdout).toMatch(
						/Never checked here: webhook delivery bodies, 429 and Retry-After/,
					);
				} else {
					expect(different.length).toBeGreaterThan(0);
					for (const row of different) expect(row.detail).toMatch(named);
					expect(run.code).toBe(1);
				}
			} finally {
				await sb.ok('PUT', '/_sandbox/variants', { token: null, body: { variants: [] } });
			}
		},
	);
});
