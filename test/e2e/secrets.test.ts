/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Secrets at rest and in addresses, in a real n8n with the packed package installed:
 * - an active trigger's static data, as n8n stores it in its database and as its CLI exports the
 *   workflow, holds nothing a delivery can be signed with; deliveries still verify after n8n
 *   restarts; a rotated access token behaves as the README's Trigger section says;
 * - a Base URL with a user part is refused by the credential test (n8n's REST
 *   `POST /rest/credentials/test`) and at run time, naming the field, and the token typed there
 *   is in no message, stack, output item or saved execution.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';

import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { everyValue } from '../support/everyValue';
import { call, TOKENS } from '../support/sandboxApi';
import { example, propRadarNode, runByHand } from '../support/workflows';
import { until } from '../support/until';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, N8nHost, RunningN8n } from '../../scripts/n8n-host';
import { seedDemoData } from '../../scripts/demo-data';

jest.setTimeout(300_000);

const WORKFLOW_ID = 'PropRadarEx00004';
/** A token typed into a Base URL's user part. */
const URL_TOKEN = 'url-token-e2e-6b1d94c3a7';

type Hook = { WebhookID: number; HookUrl: string; Secret: string };

let sandbox: RunningSandbox;
let prepared: N8nHost;
let host: RunningN8n;
let client: N8nClient;
let logFile: string;
/** The account's token as the n8n credential holds it (rotated by the tests). */
let token: string = TOKENS.main;

/** n8n and the sandbox act asynchronously: poll every 300 ms, for up to 60 s. */
const waitFor = <T>(what: string, read: () => Promise<T | undefined>): Promise<T> =>
	until(what, read, 60_000, 300);

async function sandboxApi<T>(
	method: string,
	path: string,
	body?: unknown,
	as: string | null = token,
): Promise<T> {
	const answer = await call(sandbox.url, method, path, { body, token: as });
	if (answer.status !== 200)
		throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	return answer.body as T;
}

const hooks = async () =>
	(
		await sandboxApi<{ results: Hook[] }>(
			'GET',
			'/v1/integrations/webhooks?Fields=WebhookID,HookUrl,Secret',
		)
	).results;

/** One delivery to the trigger's URL, as PropRadar (or a forger) sends it; its status. */
async function deliver(hook: Hook, authorization: string, body: unknown = {}): Promise<number> {
	const answer = await fetch(hook.HookUrl, {
		method: 'POST',
		headers: { authorization, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	await answer.text();
	return answer.status;
}

/** The one webhook of the trigger, once n8n registered it (another than `not`) and serves its URL with its secret: `{}` then gets 400. */
async function servedHook(not?: number): Promise<Hook> {
	const hook = await waitFor("the trigger's webhook registered", async () => {
		const now = await hooks();
		return now.length === 1 && now[0].WebhookID !== not ? now[0] : undefined;
	});
	await waitFor('n8n serving the trigger with its secret', async () =>
		(await deliver(hook, `Bearer ${hook.Secret}`)) === 400 ? true : undefined,
	);
	return hook;
}

const leads = async () =>
	(
		await sandboxApi<{ results: Array<{ body: { propId: string } }> }>(
			'GET',
			'/_sandbox/crm',
			undefined,
			null,
		)
	).results;

/** A new match in list 1, delivered by the sandbox; resolves once the workflow put it in the CRM. */
async function newMatchReachesTheCrm(): Promise<void> {
	const before = (await leads()).length;
	await sandboxApi('POST', '/_sandbox/simulate/new-match', { ListID: 1 }, null);
	await waitFor('the new match in the CRM', async () =>
		(await leads()).length > before ? true : undefined,
	).catch(async (error: Error) => {
		throw new Error(
			`${error.message}; the sandbox's last deliveries: ${JSON.stringify((await sandboxApi<{ results: unknown[] }>('GET', '/_sandbox/deliveries?wait=1', undefined, null)).results.slice(-3))}`,
		);
	});
}

/** The account's token rotated at the service, the old one refused from then on, and the new one put in n8n's credential. */
async function rotateToken(): Promise<void> {
	const rotated = await sandboxApi<{ token: string }>(
		'POST',
		'/_sandbox/tokens/rotate',
		{ token },
		null,
	);
	token = rotated.token;
	await client.rest('PATCH', `/credentials/${n8n.CREDENTIAL.id}`, {
		name: n8n.CREDENTIAL.name,
		type: 'propRadarApi',
		data: { accessToken: token, baseUrl: sandbox.url, spendingCeilingMode: 'none' },
	});
}

async function restartN8n(): Promise<void> {
	await host.stop();
	host = await n8n.start(prepared, { logFile });
	client = await n8n.login(host);
}

const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');

/** n8n's database files as bytes (the database and its write-ahead log). */
function databaseBytes(): Buffer {
	const base = join(prepared.userFolder, '.n8n', 'database.sqlite');
	return Buffer.concat(
		[base, `${base}-wal`].filter((file) => existsSync(file)).map((file) => readFileSync(file)),
	);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	await seedDemoData(sandbox.url);
	prepared = await n8n.prepare({
		sandboxUrl: sandbox.url,
		workflows: [example('04-foreclosures-to-crm.json')],
	});
	logFile = join(prepared.userFolder, 'n8n.log');
	host = await n8n.start(prepared, { logFile });
	client = await n8n.login(host);
});

afterAll(async () => {
	await host?.stop();
	await sandbox?.close();
	if (prepared) rmSync(prepared.userFolder, { recursive: true, force: true });
});

describe("the trigger's delivery secret", () => {
	let hook: Hook;

	test("an active trigger's static data, in n8n's database and in a workflow export by n8n's CLI, holds nothing a delivery can be signed with", async () => {
		await n8n.activate(client, WORKFLOW_ID);
		hook = await servedHook();
		expect(hook.Secret).toMatch(/^[0-9a-f]{64}$/);

		const database = new DatabaseSync(join(prepared.userFolder, '.n8n', 'database.sqlite'), {
			readOnly: true,
		});
		let stored: unknown;
		try {
			const row = database
				.prepare('SELECT staticData FROM workflow_entity WHERE id = ?')
				.get(WORKFLOW_ID) as { staticData: string | null };
			stored = JSON.parse(String(row.staticData));
		} finally {
			database.close();
		}
		const exportFile = join(prepared.userFolder, 'export.json');
		await promisify(execFile)(
			prepared.bin!,
			['export:workflow', `--id=${WORKFLOW_ID}`, `--output=${exportFile}`],
			{ env: prepared.env },
		);
		const exportText = readFileSync(exportFile, 'utf8');
		const [exported] = JSON.parse(exportText) as Array<{ staticData: unknown }>;
		// What n8n keeps is there (the registration of the trigger node), the same in both.
		expect(exported.staticData).toEqual(stored);
		expect(JSON.stringify(stored)).toContain(hook.HookUrl);

		expect(exportText).not.toContain(hook.Secret);
		expect(databaseBytes().includes(hook.Secret)).toBe(false);
		const values = [...new Set([...everyValue(stored), ...everyValue(exported)])];
		expect(values.length).toBeGreaterThan(5);
		const answers = [];
		for (const value of values)
			answers.push({ value, status: await deliver(hook, `Bearer ${value}`) });
		expect(answers.filter((answer) => answer.status !== 401)).toEqual([]);
		expect(await deliver(hook, `Bearer ${hook.Secret}`)).toBe(400);
	});

	test('after n8n restarts, deliveries still verify: the same webhook, and a new match reaches the CRM', async () => {
		await restartN8n();
		expect(await servedHook()).toEqual(hook);
		await newMatchReachesTheCrm();
	});

	test("a rotated token: deliveries signed with the old secret are refused and n8n's log says to publish the workflow again; a restart does not change that (n8n 2.41 does not call the trigger at start); publishing again registers with the new token, and deliveries go on", async () => {
		await rotateToken();
		expect(await deliver(hook, `Bearer ${hook.Secret}`)).toBe(401);
		const warning = await waitFor("the warning in n8n's log", async () =>
			log()
				.split('\n')
				.find((line) => line.includes('PropRadar Trigger refused a delivery')),
		);
		expect(warning).toContain('publish the workflow again');

		// A new match meanwhile is refused: nothing reaches the CRM.
		const before = (await leads()).length;
		await sandboxApi('POST', '/_sandbox/simulate/new-match', { ListID: 1 }, null);
		const [last] = (
			await sandboxApi<{ results: Array<{ WebhookID: number; statuses: number[] }> }>(
				'GET',
				'/_sandbox/deliveries?wait=1',
				undefined,
				null,
			)
		).results.slice(-1);
		expect(last).toMatchObject({ WebhookID: hook.WebhookID, statuses: [401] });
		expect((await leads()).length).toBe(before);

		await restartN8n();
		await waitFor('n8n serving the trigger again', async () =>
			(await deliver(hook, 'Bearer not-the-secret')) === 401 ? true : undefined,
		);
		expect(await hooks()).toEqual([hook]);
		expect(await deliver(hook, `Bearer ${hook.Secret}`)).toBe(401);

		await n8n.deactivate(client, WORKFLOW_ID);
		await n8n.activate(client, WORKFLOW_ID);
		const renewed = await servedHook(hook.WebhookID);
		expect(renewed.Secret).not.toBe(hook.Secret);
		expect(await deliver(renewed, `Bearer ${hook.Secret}`)).toBe(401);
		await newMatchReachesTheCrm();
		for (const secret of [hook.Secret, renewed.Secret, token, TOKENS.main])
			expect(log()).not.toContain(secret);
		hook = renewed;
	});

	afterAll(async () => {
		await n8n.deactivate(client, WORKFLOW_ID).catch(() => undefined);
	});
});

describe('a Base URL with a user part', () => {
	const withUser = (url: string) => url.replace('://', `://u:${URL_TOKEN}@`);

	test.each([
		['the sandbox', () => sandbox.url],
		['an address nothing listens at', () => 'http://127.0.0.1:1'],
	])(
		"is refused by n8n's credential test, naming the field, without the token (%s)",
		async (_name, address) => {
			const result = (await client.rest('POST', '/credentials/test', {
				credentials: {
					id: '',
					name: 'PropRadar check',
					type: 'propRadarApi',
					data: { accessToken: token, baseUrl: withUser(address()), spendingCeilingMode: 'none' },
				},
			})) as { status: string; message: string };
			expect(result.status).toBe('Error');
			expect(result.message).toBe('Base URL: remove the user name or password (before "@")');
			expect(JSON.stringify(result)).not.toContain(URL_TOKEN);
		},
	);

	test('is refused at run time, naming the field: no message, stack, output item or saved execution holds the token', async () => {
		const credential = (await client.rest('POST', '/credentials', {
			name: 'PropRadar, token in the address',
			type: 'propRadarApi',
			data: {
				accessToken: token,
				baseUrl: withUser('http://127.0.0.1:1'),
				spendingCeilingMode: 'none',
			},
		})) as { id: string };
		const workflow = (onError: string | undefined) =>
			runByHand(
				{ name: `e2e: token in the Base URL (${onError ?? 'stop'})` },
				{
					...propRadarNode(
						'lists',
						'Lists',
						[220, 0],
						{ resource: 'list', operation: 'getMany', returnAll: false, limit: 5 },
						{ id: credential.id, name: 'PropRadar, token in the address' },
					),
					...(onError ? { onError } : {}),
				},
			);
		const continuing = (await client.rest(
			'POST',
			'/workflows',
			workflow('continueRegularOutput'),
		)) as { id: string };
		const stopping = (await client.rest('POST', '/workflows', workflow(undefined))) as {
			id: string;
		};

		const run = JSON.stringify(await n8n.runWorkflow(client, continuing.id));
		expect(run).toContain('The Base URL of the PropRadar credential holds a user name or password');
		expect(run).toContain('(the address is then http://127.0.0.1:1)');
		expect(run).not.toContain(URL_TOKEN);

		const failure = await n8n.runWorkflow(client, stopping.id).then(
			(printed) => JSON.stringify(printed),
			(error: Error) => `${error.message}\n${error.stack ?? ''}`,
		);
		expect(failure).toContain(
			'The Base URL of the PropRadar credential holds a user name or password',
		);
		expect(failure).not.toContain(URL_TOKEN);

		const executions = (await client.rest(
			'GET',
			`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: stopping.id }))}`,
		)) as { results: Array<{ id: string }> };
		for (const { id } of executions.results) {
			const saved = JSON.stringify(await client.rest('GET', `/executions/${id}`));
			expect(saved).toContain('holds a user name or password');
			expect(saved).not.toContain(URL_TOKEN);
		}
		expect(databaseBytes().includes(URL_TOKEN)).toBe(false);
		expect(log()).not.toContain(URL_TOKEN);
	});
});
