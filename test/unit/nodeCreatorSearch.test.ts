/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * What n8n's node creator finds the PropRadar node by (issue 38). n8n reads a community node's
 * aliases from its codex file, `<Node>.node.json` beside the built node (n8n-core's
 * `DirectoryLoader.getCodex`, used by the `LazyPackageDirectoryLoader` n8n 2.41 runs on every
 * package in `~/.n8n/nodes/node_modules`). Its editor searches the node types' display names and
 * those aliases with `sublimeSearch` of `@n8n/utils` (weights 1.3 and 1), keeping every match: a
 * match needs every letter of what was typed, in order, inside one name or one alias, so "owners"
 * finds no alias "Owner".
 *
 * Here the package is built with its own build script from a copy of the sources, packed with
 * `npm pack`, unpacked as n8n installs it, and loaded by n8n-core's loader in a process of its
 * own (as n8n loads it, outside jest); the editor's search then runs on what the loader gave.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Codex = { alias?: string[]; categories?: string[] };
type LoadedNode = { name: string; displayName: string; codex?: Codex };
type SublimeSearch = <T extends object>(
	filter: string,
	data: readonly T[],
) => Array<{ score: number; item: T }>;

// The editor's own search (n8n-editor-ui bundles this module of @n8n/utils, which n8n-core depends on).
// Loaded through createRequire: TypeScript reads this module's types as ESM, which a CommonJS test cannot import.
const { sublimeSearch } = createRequire(__filename)('@n8n/utils/search/sublime-search') as {
	sublimeSearch: SublimeSearch;
};

const ROOT = join(__dirname, '..', '..');

/** Run with `node -e`: n8n-core's loader on the unpacked package, printing the node types' descriptions. */
const LOADER = `
const [root, dir] = process.argv.slice(1);
const { LazyPackageDirectoryLoader } = require(require.resolve('n8n-core', { paths: [root] }));
(async () => {
	const loader = new LazyPackageDirectoryLoader(dir);
	await loader.loadAll();
	const icons = [...loader.types.nodes, ...loader.types.credentials].map(({ name, iconUrl }) => ({ name, iconUrl }));
	process.stdout.write(JSON.stringify({ nodes: loader.types.nodes.map(({ name, displayName, codex }) => ({ name, displayName, codex })), icons }));
})().catch((error) => {
	console.error(error);
	process.exit(1);
});
`;

let work: string;
let packedFiles: string[];
let loaded: LoadedNode[];
let icons: Array<{ name: string; iconUrl: { light: string; dark: string } }>;
let installed: string;

beforeAll(() => {
	work = mkdtempSync(join(tmpdir(), 'propradar-codex-'));
	// The sources as a clone has them, built by package.json's own build script.
	const clone = join(work, 'clone');
	for (const entry of [
		'package.json',
		'tsconfig.json',
		'gulpfile.js',
		'README.md',
		'LICENSE',
		'nodes',
		'credentials',
		'icons',
	]) {
		cpSync(join(ROOT, entry), join(clone, entry), { recursive: true });
	}
	symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
	execFileSync('npm', ['run', '--silent', 'build'], { cwd: clone, stdio: 'pipe' });
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: clone,
			encoding: 'utf8',
		}),
	) as Array<{ filename: string; files: Array<{ path: string }> }>;
	packedFiles = packed.files.map((file) => file.path);

	// Unpacked where n8n installs community packages; n8n-workflow resolves beside it, as n8n provides it.
	const modules = join(work, 'home', '.n8n', 'nodes', 'node_modules');
	installed = join(modules, 'n8n-nodes-propradar');
	mkdirSync(installed, { recursive: true });
	execFileSync('tar', [
		'xzf',
		join(work, packed.filename),
		'-C',
		installed,
		'--strip-components=1',
	]);
	symlinkSync(join(ROOT, 'node_modules', 'n8n-workflow'), join(modules, 'n8n-workflow'), 'dir');
	const env = { ...process.env };
	delete env.JEST_WORKER_ID;
	({ nodes: loaded, icons } = JSON.parse(
		execFileSync(process.execPath, ['-e', LOADER, ROOT, installed], {
			env: { ...env, NODE_ENV: 'production' },
			encoding: 'utf8',
		}),
	) as { nodes: LoadedNode[]; icons: typeof icons });
}, 240_000);

afterAll(() => {
	if (work) rmSync(work, { recursive: true, force: true });
});

/** The node types the editor's search finds by `typed`, as its node creator searches (lower-cased). */
function found(typed: string): string[] {
	const items = loaded.map((description) => ({ key: description.name, properties: description }));
	return sublimeSearch(typed.toLowerCase(), items).map(({ item }) => item.key);
}

test("the build puts each node's codex beside it, and the packed package carries them", () => {
	expect(packedFiles).toEqual(
		expect.arrayContaining([
			'dist/nodes/PropRadar/PropRadar.node.json',
			'dist/nodes/PropRadar/PropRadarTrigger.node.json',
			'dist/nodes/PropRadar/PropRadarPollingTrigger.node.json',
		]),
	);
});

test("n8n-core's loader points every node's and the credential's icons (kept once, in icons/) at files the packed package carries", () => {
	expect(icons.map(({ name }) => name).sort()).toEqual([
		'propRadar',
		'propRadarApi',
		'propRadarPollingTrigger',
		'propRadarTrigger',
	]);
	for (const { iconUrl } of icons)
		for (const url of [iconUrl.light, iconUrl.dark]) {
			expect(url).toMatch(/^icons\/n8n-nodes-propradar\/dist\/icons\/propradar(\.dark)?\.svg$/);
			expect(existsSync(join(installed, url.replace('icons/n8n-nodes-propradar/', '')))).toBe(true);
		}
});

test("n8n-core's loader reads the aliases from the packed package's codex", () => {
	const node = loaded.find((description) => description.name === 'propRadar');
	expect(node?.codex?.alias).toEqual(
		expect.arrayContaining([
			'Owners',
			'Phone',
			'Phone Number',
			'Email',
			'E-mail',
			'Buy',
			'Purchase',
			'Skip Trace',
			'Leads',
		]),
	);
	expect(node?.codex?.categories).toEqual(expect.arrayContaining(['Marketing']));
});

test.each([
	'owners',
	'owner',
	'homeowners',
	'phone',
	'phone number',
	'phone numbers',
	'buy',
	'purchase',
	'email',
	'e-mail',
	'skip trace',
	'leads',
	'real estate',
	'PropRadar',
])('the node creator\'s search for "%s" finds the PropRadar node', (typed) => {
	expect(found(typed)).toContain('propRadar');
});

// Issue 52: the polling trigger is found by what a user without a public n8n address looks for,
// and by the app's name, beside the PropRadar Trigger.
test.each([
	'poll',
	'polling',
	'schedule',
	'new properties',
	'without webhook',
	'no webhook',
	'PropRadar',
	'PropRadar trigger',
])('the node creator\'s search for "%s" finds the PropRadar Polling Trigger', (typed) => {
	expect(found(typed)).toContain('propRadarPollingTrigger');
});

test('the search for "PropRadar trigger" finds both triggers', () => {
	expect(found('PropRadar trigger')).toEqual(
		expect.arrayContaining(['propRadarTrigger', 'propRadarPollingTrigger']),
	);
});

test('the search still tells nodes apart: what no name or alias holds finds nothing', () => {
	expect(found('spreadsheet')).toEqual([]);
});
