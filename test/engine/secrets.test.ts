/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Secrets never leave: every operation of the node against a server that echoes back everything a
 * request carried (headers, query, body) in its error object, its request-id header and a redirect;
 * and redirects, which the node never follows, so the token only goes to the configured Base URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import {
	runNode,
	startEngineSandbox,
	TOKENS,
	type EngineSandbox,
	type NodeRun,
} from '../support/harness';
import { listRef } from '../support/helpers';

let sb: EngineSandbox;
let decoy: Server;
let decoyUrl: string;
const decoyRequests: Array<{ url?: string; authorization?: string }> = [];

beforeAll(async () => {
	sb = await startEngineSandbox();
	decoy = createServer((request, response) => {
		decoyRequests.push({ url: request.url, authorization: request.headers.authorization });
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end('{"results":[],"totalCost":"0.00","resultCount":0}');
	});
	await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
	decoyUrl = `http://localhost:${(decoy.address() as AddressInfo).port}`;
});
afterAll(async () => {
	decoy.closeAllConnections();
	await new Promise<void>((resolve) => decoy.close(() => resolve()));
	await sb.close();
});
beforeEach(() => {
	sb.faults.length = 0;
});

const WEBHOOK_SECRET = 'hook-secret-5f1e9a7c';
const list = listRef(1);

/** Every operation of the node, with parameters that pass its own checks (so a request is sent). */
const OPERATIONS: Array<[string, IDataObject, IDataObject[]]> = [
	[
		'list.create',
		{ resource: 'list', operation: 'create', listName: 'echo', listType: 'static' },
		[{}],
	],
	['list.get', { resource: 'list', operation: 'get', listId: list }, [{}]],
	['list.getMany', { resource: 'list', operation: 'getMany', returnAll: true }, [{}]],
	[
		'list.update',
		{ resource: 'list', operation: 'update', listId: list, updateFields: { ListName: 'renamed' } },
		[{}],
	],
	['list.delete', { resource: 'list', operation: 'delete', listId: list }, [{}]],
	[
		'listItem.add',
		{ resource: 'listItem', operation: 'add', listId: list, addBy: 'propIds', propIds: 'P000001' },
		[{}],
	],
	[
		'listItem.getMany',
		{ resource: 'listItem', operation: 'getMany', listId: list, returnAll: true },
		[{}],
	],
	[
		'listItem.remove',
		{ resource: 'listItem', operation: 'remove', listId: list, propId: 'P000001' },
		[{}],
	],
	[
		'importRecord.import',
		{
			resource: 'importRecord',
			operation: 'import',
			listId: list,
			chargeMode: 'preview',
			importOptions: { accessTokenHeader: true },
		},
		[{ Address: '1 Elm St' }],
	],
	[
		'importRecord.getMany',
		{ resource: 'importRecord', operation: 'getMany', listId: list, returnAll: true },
		[{}],
	],
	[
		'importRecord.updateMatch',
		{
			resource: 'importRecord',
			operation: 'updateMatch',
			listId: list,
			importItemId: 1,
			matchPropId: 'P000001',
		},
		[{}],
	],
	[
		'importRecord.deleteMatch',
		{ resource: 'importRecord', operation: 'deleteMatch', listId: list, importItemId: 1 },
		[{}],
	],
	[
		'person.getOwners',
		{ resource: 'person', operation: 'getOwners', propId: 'P000001', chargeMode: 'preview' },
		[{}],
	],
	[
		'person.getRecords',
		{
			resource: 'person',
			operation: 'getRecords',
			personKey: 'K000001A',
			recordKind: 'liens',
			returnAll: true,
			chargeMode: 'preview',
		},
		[{}],
	],
	[
		'person.purchasePhone',
		{
			resource: 'person',
			operation: 'purchasePhone',
			personKey: 'K000001A',
			chargeMode: 'preview',
		},
		[{}],
	],
	[
		'person.purchaseEmail',
		{
			resource: 'person',
			operation: 'purchaseEmail',
			personKey: 'K000001A',
			chargeMode: 'preview',
		},
		[{}],
	],
	[
		'property.get',
		{ resource: 'property', operation: 'get', propId: 'P000001', chargeMode: 'preview' },
		[{}],
	],
	[
		'property.search',
		{
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR"]}]',
			returnAll: true,
			chargeMode: 'preview',
		},
		[{}],
	],
	[
		'property.getEvictions',
		{ resource: 'property', operation: 'getEvictions', propId: 'P000001', chargeMode: 'preview' },
		[{}],
	],
	[
		'property.getComps',
		{
			resource: 'property',
			operation: 'getComps',
			propId: 'P000001',
			compsKind: 'sales',
			chargeMode: 'preview',
		},
		[{}],
	],
	[
		'property.getParcels',
		{ resource: 'property', operation: 'getParcels', propId: 'P000001', chargeMode: 'preview' },
		[{}],
	],
	[
		'property.getTransactions',
		{
			resource: 'property',
			operation: 'getTransactions',
			propId: 'P000001',
			chargeMode: 'preview',
		},
		[{}],
	],
	['automation.get', { resource: 'automation', operation: 'get', listId: list }, [{}]],
	[
		'automation.configure',
		{
			resource: 'automation',
			operation: 'configure',
			listId: list,
			configureMode: 'replace',
			automation: { isEnabled: true, Triggers: 'New Matches' },
		},
		[{}],
	],
	[
		'webhook.create',
		{
			resource: 'webhook',
			operation: 'create',
			hookUrl: 'https://crm.example/hook',
			webhookName: 'crm',
			secret: WEBHOOK_SECRET,
		},
		[{}],
	],
	[
		'webhook.getMany',
		{ resource: 'webhook', operation: 'getMany', returnAll: true, includeSecret: true },
		[{}],
	],
	['webhook.delete', { resource: 'webhook', operation: 'delete', webhookId: 1 }, [{}]],
	['account.getMembers', { resource: 'account', operation: 'getMembers' }, [{}]],
	['account.getStatusLabels', { resource: 'account', operation: 'getStatusLabels' }, [{}]],
];

const run = (
	parameters: IDataObject,
	items: IDataObject[] = [{}],
	continueOnFail = false,
): Promise<NodeRun> =>
	runNode(parameters, {
		credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
		items,
		continueOnFail,
	});

/**
 * Everything the node puts in a run: the error, the output items, the hints. n8n attaches the
 * node's own definition (`node`, with its parameters) to an error; that is the workflow itself,
 * where an entered webhook secret is by the user's choice (its help says so), so it is left out.
 */
function seen(result: NodeRun): string {
	const task = result.run?.data.resultData.runData.PropRadar?.[0];
	const withoutNode = (error: unknown) =>
		error && typeof error === 'object' ? { ...error, node: undefined } : error;
	return JSON.stringify([
		withoutNode(result.error),
		result.json,
		task?.hints ?? [],
		withoutNode(task?.error ?? null),
	]);
}

const secretsIn = (text: string) =>
	[TOKENS.main, WEBHOOK_SECRET].filter((secret) => text.includes(secret));

test('the echo is real: the token and the secret reach the echoing server', async () => {
	sb.faults.push({ pathPrefix: '/v1/', count: 1, echo: true });
	const before = sb.requests.length;
	await run(OPERATIONS.find(([name]) => name === 'webhook.create')![1]);
	const sent = sb.requests.slice(before)[0];
	expect(sent.authorization).toBe(`Bearer ${TOKENS.main}`);
	expect(sent.body).toContain(WEBHOOK_SECRET);
});

describe.each([400, 404, 500])('a server that echoes the request in a %i answer', (status) => {
	test.each(OPERATIONS)(
		'%s: no secret in the error, the items or the hints',
		async (_name, parameters, items) => {
			sb.faults.push({ pathPrefix: '/v1/', count: 100, echo: true, status });
			const stopped = await run(parameters, items);
			const continued = await run(parameters, items, true);
			expect(stopped.error ?? continued.json[0]?.error).toBeTruthy();
			expect(secretsIn(seen(stopped))).toEqual([]);
			expect(secretsIn(seen(continued))).toEqual([]);
		},
	);
});

test.each(OPERATIONS.filter(([, parameters]) => parameters.chargeMode === 'preview'))(
	'%s in Purchase mode: an echoing 502 to the purchase leaks no secret',
	async (_name, parameters, items) => {
		sb.faults.push({
			pathPrefix: '/v1/',
			query: { Purchase: '1' },
			count: 10,
			echo: true,
			status: 502,
		});
		const result = await run({ ...parameters, chargeMode: 'purchase', maxCost: 100 }, items, true);
		expect(secretsIn(seen(result))).toEqual([]);
	},
);

describe('redirects are never followed', () => {
	test.each([
		[302, 'GET', { resource: 'list', operation: 'getMany', returnAll: true }],
		[
			307,
			'GET',
			{
				resource: 'property',
				operation: 'get',
				propId: 'P000001',
				chargeMode: 'purchase',
				maxCost: 5,
			},
		],
		[
			307,
			'POST',
			{
				resource: 'property',
				operation: 'search',
				criteriaMode: 'json',
				criteriaJson: '[{"name":"State","value":["OR"]}]',
				returnAll: false,
				limit: 5,
				chargeMode: 'purchase',
				maxCost: 5,
			},
		],
		[
			308,
			'POST',
			{
				resource: 'webhook',
				operation: 'create',
				hookUrl: 'https://crm.example/hook',
				webhookName: 'crm',
				secret: WEBHOOK_SECRET,
			},
		],
	])(
		'a %i of a %s to another origin: nothing reaches it, the error names where it pointed',
		async (status, _method, parameters) => {
			decoyRequests.length = 0;
			sb.faults.push({
				pathPrefix: '/v1/',
				count: 10,
				status,
				headers: { location: `${decoyUrl}/v1/stolen` },
				body: {},
			});
			const result = await run(parameters);
			expect(decoyRequests).toEqual([]);
			expect(result.error?.message).toContain(
				`PropRadar answered with a redirect (${status}), which is not followed`,
			);
			expect(result.error?.description).toContain(`${decoyUrl}/v1/stolen`);
			expect(secretsIn(seen(result))).toEqual([]);
		},
	);

	test('a redirect of a purchase: not followed, and the money message is the truthful one', async () => {
		decoyRequests.length = 0;
		sb.faults.push({
			pathPrefix: '/v1/properties/P000002',
			query: { Purchase: '1' },
			count: 1,
			status: 307,
			headers: { location: `${decoyUrl}/v1/properties/P000002?Purchase=1` },
			body: {},
		});
		const result = await run({
			resource: 'property',
			operation: 'get',
			propId: 'P000002',
			chargeMode: 'purchase',
			maxCost: 5,
		});
		expect(decoyRequests).toEqual([]);
		expect(result.error?.description).toContain('may or may not have been charged');
		expect(result.error?.description).toContain('this run buys nothing more');
	});
});

describe("Webhook > Create's secret", () => {
	test('left empty: a fresh 256-bit secret is made, registered and output once', async () => {
		const [first] = (
			await run({
				resource: 'webhook',
				operation: 'create',
				hookUrl: 'https://crm.example/a',
				webhookName: 'a',
			})
		).json;
		const [second] = (
			await run({
				resource: 'webhook',
				operation: 'create',
				hookUrl: 'https://crm.example/b',
				webhookName: 'b',
			})
		).json;
		expect(first.Secret).toMatch(/^[0-9a-f]{64}$/);
		expect(second.Secret).not.toBe(first.Secret);
		const stored = await fetch(
			`${sb.sandbox.url}/v1/integrations/webhooks?Fields=WebhookID,Secret`,
			{ headers: { authorization: `Bearer ${TOKENS.main}` } },
		);
		const { results } = (await stored.json()) as {
			results: Array<{ WebhookID: number; Secret: string }>;
		};
		expect(results.find((hook) => hook.WebhookID === first.WebhookID)?.Secret).toBe(first.Secret);
	});

	test('a typed secret is used as it is, and not output', async () => {
		const [hook] = (
			await run({
				resource: 'webhook',
				operation: 'create',
				hookUrl: 'https://crm.example/c',
				webhookName: 'c',
				secret: 'a-typed-secret',
			})
		).json;
		expect(hook.Secret).toBeUndefined();
		expect(JSON.parse(sb.sent('/v1/integrations/webhooks', 'POST').at(-1)!.body).Secret).toBe(
			'a-typed-secret',
		);
	});
});
