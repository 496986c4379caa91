/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The demo tier: `npm run demo` started as a user starts it (through npm), on free ports and in its
 * own state folder (DEMO_DIR). First start: the examples, the printed link, example 4 delivering to
 * the sandbox of that start, then the user's edits; stopped with SIGINT to the npm process (an IDE's
 * stop button). A restart on other ports keeps the edits and the publication and follows the new
 * addresses; stopped with SIGTERM to npm. A restart on the same ports; stopped as Ctrl-C in a
 * terminal does (SIGINT to the whole process group). Nothing of the demo may be left after a stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

import { servedWithSecret, SHOWN } from '../support/realN8n';
import { call } from '../support/sandboxApi';
import { allExamples } from '../support/workflows';
import { until } from '../support/until';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient } from '../../scripts/n8n-host';

jest.setTimeout(420_000);

const ROOT = join(__dirname, '..', '..');
type Workflow = {
	id: string;
	name: string;
	active?: boolean;
	nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
};
const examples = allExamples<Workflow>();

interface Demo {
	npm: ChildProcess;
	output: () => string;
	sandboxPort: number;
	n8nPort: number;
	sandboxUrl: string;
	n8nUrl: string;
}
const started: Demo[] = [];
const demoDir = mkdtempSync(join(tmpdir(), 'propradar-demo-test-'));

/** `npm run demo` in its own process group (so that the test can tell whether anything of it is left). */
async function startDemo(ports?: { sandboxPort: number; n8nPort: number }): Promise<Demo> {
	const { sandboxPort, n8nPort } = ports ?? {
		sandboxPort: await n8n.freePort(),
		n8nPort: await n8n.freePort(),
	};
	// The demo as a user's shell starts it: without what jest adds to the environment.
	const env = { ...process.env };
	for (const name of ['NODE_ENV', 'JEST_WORKER_ID', 'N8N_USER_FOLDER', 'N8N_LOG_LEVEL'])
		delete env[name];
	const npm = spawn('npm', ['run', 'demo'], {
		cwd: ROOT,
		env: {
			...env,
			SANDBOX_PORT: String(sandboxPort),
			N8N_PORT: String(n8nPort),
			DEMO_DIR: demoDir,
		},
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	npm.stdout!.on('data', (chunk) => (output += chunk));
	npm.stderr!.on('data', (chunk) => (output += chunk));
	const demo = {
		npm,
		output: () => output,
		sandboxPort,
		n8nPort,
		sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
		n8nUrl: `http://127.0.0.1:${n8nPort}`,
	};
	started.push(demo);
	await until(
		'the demo to be ready',
		() => {
			if (output.includes('PropRadar demo is running.')) return true;
			if (npm.exitCode !== null)
				throw new Error(`npm run demo exited with ${npm.exitCode}:\n${output.slice(-4000)}`);
			return undefined;
		},
		360_000,
		500,
	);
	return demo;
}

/** The processes of a process group that are still alive (zombies are dead). */
function alive(group: number): string[] {
	const left: string[] = [];
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		try {
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(pgrp) === group && state !== 'Z')
				left.push(
					`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 120)}`,
				);
		} catch {
			// gone meanwhile
		}
	}
	return left;
}

/**
 * Stops the demo with `signal`, sent to the npm process only (as `kill` or an IDE's stop button does)
 * or to its whole process group (as Ctrl-C in a terminal does); nothing of it may be left.
 */
async function stopDemo(
	demo: Demo,
	signal: NodeJS.Signals,
	target: 'npm' | 'group',
): Promise<void> {
	process.kill(target === 'npm' ? demo.npm.pid! : -demo.npm.pid!, signal);
	await until(
		`npm run demo to exit after ${signal}`,
		() => (demo.npm.exitCode !== null || demo.npm.signalCode !== null ? true : undefined),
		60_000,
		200,
	).catch((error: Error) => {
		throw new Error(`${error.message}:\n${demo.output().slice(-2000)}`);
	});
	await until(
		`nothing of the demo left after ${signal} to ${target}`,
		() => (alive(demo.npm.pid!).length === 0 ? true : undefined),
		30_000,
		200,
	).catch((error: Error) => {
		throw new Error(`${error.message}: ${alive(demo.npm.pid!).join('; ')}`);
	});
}

const sandboxApi = async <T>(
	demo: Demo,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> => (await call(demo.sandboxUrl, method, path, { body })).body as T;

/** A new match in list 1 (example 4's list) reaches the CRM of this start's sandbox. */
async function newMatchReachesCrm(demo: Demo, client: N8nClient): Promise<void> {
	const [hook] = await until(
		"example 4 registered with this start's sandbox and n8n",
		async () => {
			const { results } = await sandboxApi<{ results: Array<{ HookUrl: string; Secret: string }> }>(
				demo,
				'GET',
				'/v1/integrations/webhooks',
			);
			return results.length === 1 && results[0].HookUrl.startsWith(`${demo.n8nUrl}/webhook/`)
				? results
				: undefined;
		},
		60_000,
		300,
	);
	// n8n registers with PropRadar before its route answers and before it has saved the secret: a
	// delivery with the secret and a body without events gets 400 (and starts nothing) once both are.
	await servedWithSecret(hook);
	const match = await sandboxApi<{ PropID: string }>(demo, 'POST', '/_sandbox/simulate/new-match', {
		ListID: 1,
	});
	const { PropID } = match;
	await until(
		`the lead ${PropID} in ${demo.sandboxUrl}/_sandbox/crm`,
		async () =>
			(
				await sandboxApi<{ results: Array<{ body: { propId?: string } }> }>(
					demo,
					'GET',
					'/_sandbox/crm',
				)
			).results.some((lead) => lead.body.propId === PropID)
				? true
				: undefined,
		30_000,
		300,
	).catch(async (error: Error) => {
		const { results } = (await client.rest(
			'GET',
			'/executions?filter=' +
				encodeURIComponent(JSON.stringify({ workflowId: 'PropRadarEx00004' })),
		)) as { results: Array<{ id: string; status: string }> };
		const last = results[0]
			? JSON.stringify(await client.rest('GET', `/executions/${results[0].id}`)).slice(0, 3000)
			: 'no execution';
		throw new Error(
			`${error.message}; the new match: ${JSON.stringify(match)}; executions of example 4: ${JSON.stringify(results.map((run) => run.status))}; the last: ${last}`,
		);
	});
}

afterAll(() => {
	for (const demo of started) {
		if (alive(demo.npm.pid!).length > 0) process.kill(-demo.npm.pid!, 'SIGKILL');
	}
	rmSync(demoDir, { recursive: true, force: true });
});

const EDITED_NAME = 'PropRadar: my own export (edited)';
type Credential = { name: string; type: string; data: Record<string, unknown> };
const credential = (client: N8nClient) =>
	client.rest('GET', '/credentials/propradar-sandbox?includeData=true') as Promise<Credential>;
let ports: { sandboxPort: number; n8nPort: number };

test("first start on other ports: the examples are imported, the printed link lists them, example 4 posts to this start's sandbox; SIGINT to npm stops everything", async () => {
	const demo = await startDemo();
	const link = `${demo.n8nUrl}/home/workflows`;
	expect(demo.output()).toContain(link);
	expect(demo.output()).toContain('imported the 6 example workflows');

	// The printed link, signed in, lists every example.
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--headless', '--no-sandbox', '--disable-gpu'],
	});
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		await page.goto(link);
		await page.locator('input[type="email"]').first().fill(n8n.OWNER.email);
		await page.locator('input[type="password"]').first().fill(n8n.OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((url) => url.pathname === '/home/workflows', SHOWN);
		for (const example of examples)
			await page.getByText(example.name, { exact: true }).first().waitFor(SHOWN);
		// n8n's own start page, for comparison: its Assistant, not the workflows.
		await page.goto(`${demo.n8nUrl}/`);
		await page.waitForURL((url) => url.pathname !== '/', SHOWN);
		expect(new URL(page.url()).pathname).toBe('/assistant');
	} finally {
		await browser.close();
	}

	const client = await n8n.login({ url: demo.n8nUrl });
	await n8n.activate(client, 'PropRadarEx00004');
	await newMatchReachesCrm(demo, client);

	// What a user does: renames an example, and deletes one (archive, then delete) to get its original back.
	const first = (await client.rest('GET', '/workflows/PropRadarEx00001')) as { versionId: string };
	await client.rest('PATCH', '/workflows/PropRadarEx00001', {
		name: EDITED_NAME,
		versionId: first.versionId,
	});
	await client.rest('POST', '/workflows/PropRadarEx00003/archive', {});
	await client.rest('DELETE', '/workflows/PropRadarEx00003');
	const stored = await credential(client);
	expect(stored.data.baseUrl).toBe(demo.sandboxUrl);
	// No ceiling field stored, as for a credential new in the editor: n8n runs it with the credential's
	// defaults, Ceiling per Execution of $10 (test/unit/demoCredential.test.ts resolves it as n8n does).
	expect(stored.data).not.toHaveProperty('spendingCeilingMode');
	expect(stored.data).not.toHaveProperty('spendingCeiling');
	await client.rest('PATCH', '/credentials/propradar-sandbox', {
		name: stored.name,
		type: stored.type,
		data: { ...stored.data, allowChargingAutomations: true },
	});

	// n8n is given N8N_WEBHOOK_URL, not the name n8n 2.41 logs as deprecated.
	expect(readFileSync(join(demoDir, 'n8n.log'), 'utf8')).not.toContain(
		'Use N8N_WEBHOOK_URL instead',
	);

	await stopDemo(demo, 'SIGINT', 'npm');
});

test('a restart on other ports keeps the edit and the activation, brings back the deleted example, and example 4 follows the new sandbox; SIGTERM to npm stops everything', async () => {
	const demo = await startDemo();
	expect(demo.output()).toContain(`imported the missing example workflows: ${examples[2].name}`);
	const client = await n8n.login({ url: demo.n8nUrl });
	const workflow = (id: string) =>
		client.rest('GET', `/workflows/${id}`) as Promise<
			Workflow & { activeVersionId: string | null }
		>;
	expect((await workflow('PropRadarEx00001')).name).toBe(EDITED_NAME);
	expect((await workflow('PropRadarEx00003')).name).toBe(examples[2].name);
	expect((await workflow('PropRadarEx00004')).active).toBe(true);
	expect((await credential(client)).data).toMatchObject({
		baseUrl: demo.sandboxUrl,
		allowChargingAutomations: true,
	});
	expect(demo.output()).toMatch(/n8n's address changed .*published again 1 published workflow/);
	await newMatchReachesCrm(demo, client);
	ports = { sandboxPort: demo.sandboxPort, n8nPort: demo.n8nPort };

	await stopDemo(demo, 'SIGTERM', 'npm');
});

test('a restart on the same ports changes nothing: example 4 still delivers; Ctrl-C in a terminal (SIGINT to the whole process group) stops everything', async () => {
	const demo = await startDemo(ports);
	expect(demo.output()).toContain('the example workflows are kept as you left them');
	expect(demo.output()).not.toContain("n8n's address changed");
	await newMatchReachesCrm(demo, await n8n.login({ url: demo.n8nUrl }));
	await stopDemo(demo, 'SIGINT', 'group');
});
