/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The e2e tier: the package installed the way a user installs it by hand, the route n8n documents
 * for self-hosted instances and Docker. A local npm registry on loopback (verdaccio,
 * scripts/registry.js, no uplinks) serves the packed package; in a fresh `~/.n8n/nodes`, `npm
 * install` installs it, n8n starts and runs a PropRadar workflow against the sandbox; then the
 * package is updated to a newer version (the same tarball with its version bumped) and removed,
 * and n8n starts each time. Every n8n process runs with test/e2e/onlyWorkflowAndBuiltins.js
 * preloaded: a file of the installed package that requires anything but a relative path, a Node
 * built-in or n8n-workflow gets MODULE_NOT_FOUND, as it would where n8n's own node_modules were
 * not on the module path, so the workflow runs only if the package needs nothing else at run time.
 * One n8n start per step; the steps run in order, each on what the one before left.
 */
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';

import { startEngineSandbox, type EngineSandbox } from '../support/harness';
import * as n8n from '../../scripts/n8n-host';
import type { N8nHost, RunningN8n } from '../../scripts/n8n-host';
import * as registryTool from '../../scripts/registry';
import type { Registry } from '../../scripts/registry';
import { loadedTypes, output, type RunData } from '../support/realN8n';
import { propRadarNode, runByHand } from '../support/workflows';

jest.setTimeout(300_000);

const PACKAGE = 'n8n-nodes-propradar';
const GUARD = join(__dirname, 'onlyWorkflowAndBuiltins.js');
const NODE_TYPES = [`${PACKAGE}.propRadar`, `${PACKAGE}.propRadarTrigger`];

/** Run by hand: a quote (free) of one property, through the sandbox credential `prepare` imports. */
const WORKFLOW = runByHand(
	{ id: 'PropRadarInstall', name: 'install: quote of a property' },
	propRadarNode('quote', 'Quote', [220, 0], {
		resource: 'property',
		operation: 'get',
		propId: 'P000010',
		chargeMode: 'preview',
	}),
);

let sandbox: EngineSandbox;
let registry: Registry;
let work: string;
let home: string;
let nodesFolder: string;
let host: N8nHost;
let running: RunningN8n | undefined;
let first: { tarball: string; version: string };
let newer: { tarball: string; version: string };
let guardLog: string;

/** `npm <args>` in `cwd`, as the user types it, against the local registry. */
const userNpm = (args: string[], cwd = nodesFolder) => registryTool.npm(registry, args, { cwd });

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** What `~/.n8n/nodes/node_modules` holds: its folders (scoped ones as `@scope/name`), not npm's own files. */
function installed(): string[] {
	const modules = join(nodesFolder, 'node_modules');
	if (!existsSync(modules)) return [];
	return readdirSync(modules)
		.filter((name) => !name.startsWith('.'))
		.flatMap((name) =>
			name.startsWith('@')
				? readdirSync(join(modules, name)).map((scoped) => `${name}/${scoped}`)
				: [name],
		)
		.sort();
}

/** The packages npm recorded as installed (`node_modules/.package-lock.json`). */
function recorded(): string[] {
	const lock = join(nodesFolder, 'node_modules', '.package-lock.json');
	if (!existsSync(lock)) return [];
	return Object.keys(readJson<{ packages: Record<string, unknown> }>(lock).packages).sort();
}

type GuardEntry = { request: string; from: string; refused: boolean };

/** The requests (but relative ones) the guard saw from the package's files since the last call, which it forgets. */
function guarded(): GuardEntry[] {
	if (!existsSync(guardLog)) return [];
	const lines = readFileSync(guardLog, 'utf8').split('\n').filter(Boolean);
	rmSync(guardLog);
	return lines.map((line) => JSON.parse(line) as GuardEntry);
}

/**
 * The lines of an n8n log (level warn) that name this package or a module not found. n8n 2.41 names
 * the package when it cannot load it ("Failed to load package", "Skipping package directory"). Its
 * other warnings and errors are left out: with no internet, n8n's calls to api.n8n.io fail, and
 * no Python runner is installed.
 */
function problems(logFile: string): string[] {
	return readFileSync(logFile, 'utf8')
		.split('\n')
		.filter((line) => /n8n-nodes-propradar|cannot find module|module_not_found/i.test(line));
}

/** Starts n8n on the home, its output in `<work>/<step>.log`, and lists the node and credential types it loaded. */
async function startN8n(
	step: string,
): Promise<{ logFile: string; nodes: string[]; credentials: string[] }> {
	const logFile = join(work, `${step}.log`);
	running = await n8n.start(host, { logFile });
	const client = await n8n.login(running);
	return {
		logFile,
		nodes: await loadedTypes(running.url, client, 'nodes'),
		credentials: await loadedTypes(running.url, client, 'credentials'),
	};
}

async function stopN8n(): Promise<void> {
	await running?.stop();
	running = undefined;
}

/** Fails the test with what the guard refused since the last look (why n8n could not load or run the package); returns what it let through. */
function nothingRefused(): string[] {
	const requests = guarded();
	expect(requests.filter((required) => required.refused)).toEqual([]);
	return requests.map((required) => required.request);
}

/**
 * Starts n8n on the home with the package installed, checks that it starts clean (nothing refused,
 * nothing logged about the package) and lists both node types and the credential, then runs the
 * workflow with `n8n execute`: the quote comes back from the sandbox. The guard must have seen
 * the package require n8n-workflow in that run: it was at work where the package ran.
 */
async function startsCleanAndRunsTheWorkflow(step: string): Promise<void> {
	try {
		const { logFile, nodes, credentials } = await startN8n(step);
		nothingRefused();
		expect(problems(logFile)).toEqual([]);
		expect(nodes).toEqual(expect.arrayContaining(NODE_TYPES));
		expect(credentials).toContain('propRadarApi');
		const before = sandbox.sent('/v1/properties/P000010').length;
		const outcome = await n8n.execute(host, WORKFLOW.id).then(
			(run) => output(run as RunData, 'Quote'),
			(error: Error) => error,
		);
		const required = nothingRefused();
		if (outcome instanceof Error) throw outcome;
		expect(required).toContain('n8n-workflow');
		expect(outcome).toEqual([expect.objectContaining({ PropID: 'P000010', preview: true })]);
		expect(sandbox.sent('/v1/properties/P000010').length).toBeGreaterThan(before);
	} finally {
		await stopN8n();
	}
}

beforeAll(async () => {
	work = mkdtempSync(join(tmpdir(), 'propradar-install-'));
	home = join(work, 'home');
	nodesFolder = join(home, '.n8n', 'nodes');
	guardLog = join(work, 'guard.jsonl');
	sandbox = await startEngineSandbox();
	registry = await registryTool.start({ logFile: join(work, 'registry.log') });
	first = await registryTool.pack(work);
	newer = await registryTool.withVersion(first.tarball, registryTool.nextPatch(first.version));
	await registryTool.publish(registry, first.tarball);
});

afterAll(async () => {
	await stopN8n();
	await registry?.stop();
	await sandbox?.close();
	if (work) rmSync(work, { recursive: true, force: true });
});

// The peer dependency n8n-workflow is optional (peerDependenciesMeta), so npm installs no copy of
// it: one there would be found before n8n's own. The registry holds no n8n-workflow, so asking for
// it would fail the install.
test("npm install of the tarball's path (the README's route until the package is published): the package and nothing else", async () => {
	const elsewhere = join(work, 'from-tarball', '.n8n', 'nodes');
	mkdirSync(elsewhere, { recursive: true });
	await userNpm(['install', first.tarball], elsewhere);
	expect(
		readdirSync(join(elsewhere, 'node_modules')).filter((name) => !name.startsWith('.')),
	).toEqual([PACKAGE]);
	expect(
		readJson<{ version: string }>(join(elsewhere, 'node_modules', PACKAGE, 'package.json')).version,
	).toBe(first.version);
});

test(`npm install ${PACKAGE} in a fresh ~/.n8n/nodes: the package and nothing else`, async () => {
	mkdirSync(nodesFolder, { recursive: true });
	await userNpm(['install', PACKAGE]);
	expect(installed()).toEqual([PACKAGE]);
	expect(recorded()).toEqual([`node_modules/${PACKAGE}`]);
	const packageDir = join(nodesFolder, 'node_modules', PACKAGE);
	expect(readJson<{ version: string }>(join(packageDir, 'package.json')).version).toBe(
		first.version,
	);
	expect(existsSync(join(packageDir, 'node_modules'))).toBe(false);
	expect(
		readJson<{ dependencies: Record<string, string> }>(join(nodesFolder, 'package.json'))
			.dependencies,
	).toEqual({ [PACKAGE]: `^${first.version}` });
});

test('n8n starts clean with it, loads both node types and the credential, and runs a PropRadar workflow; the package requires nothing but n8n-workflow and Node built-ins', async () => {
	const prepared = await n8n.prepare({
		userFolder: home,
		sandboxUrl: sandbox.url,
		workflows: [WORKFLOW],
		install: false,
	});
	const guardedDir = realpathSync(join(nodesFolder, 'node_modules', PACKAGE)) + sep;
	host = {
		...prepared,
		env: {
			...prepared.env,
			NODE_OPTIONS: `--require "${GUARD}"`,
			PROPRADAR_GUARDED_DIR: guardedDir,
			PROPRADAR_GUARD_LOG: guardLog,
		},
	};
	await startsCleanAndRunsTheWorkflow('install');
});

test(`update: npm install ${PACKAGE}@latest gets the newer version; n8n starts clean, loads it and runs the workflow`, async () => {
	await registryTool.publish(registry, newer.tarball);
	await userNpm(['install', `${PACKAGE}@latest`]);
	expect(installed()).toEqual([PACKAGE]);
	expect(recorded()).toEqual([`node_modules/${PACKAGE}`]);
	expect(
		readJson<{ version: string }>(join(nodesFolder, 'node_modules', PACKAGE, 'package.json'))
			.version,
	).toBe(newer.version);
	expect(
		readJson<{ dependencies: Record<string, string> }>(join(nodesFolder, 'package.json'))
			.dependencies,
	).toEqual({ [PACKAGE]: `^${newer.version}` });
	await startsCleanAndRunsTheWorkflow('update');
});

test(`npm uninstall ${PACKAGE}: n8n starts clean without its node types and credential; n8n execute of the workflow fails with "Unrecognized node type"`, async () => {
	await userNpm(['uninstall', PACKAGE]);
	expect(installed()).toEqual([]);
	expect(
		readJson<{ dependencies?: Record<string, string> }>(join(nodesFolder, 'package.json'))
			.dependencies ?? {},
	).toEqual({});
	try {
		const { logFile, nodes, credentials } = await startN8n('uninstall');
		expect(problems(logFile)).toEqual([]);
		expect(nodes.filter((name) => name.startsWith(`${PACKAGE}.`))).toEqual([]);
		expect(credentials).not.toContain('propRadarApi');
		const before = sandbox.requests.length;
		await expect(n8n.execute(host, WORKFLOW.id)).rejects.toThrow(
			`Unrecognized node type: ${PACKAGE}.propRadar`,
		);
		expect(sandbox.requests.length).toBe(before);
		expect(guarded()).toEqual([]);
	} finally {
		await stopN8n();
	}
});
