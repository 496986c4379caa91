// A local npm registry on loopback, for the e2e tier's install test (test/e2e/install.test.ts):
// verdaccio (pinned) installed once into .tools/registry, started on 127.0.0.1 on a free port with
// its config, storage and one user in a temp folder, and no uplinks, so it serves only what was
// published to it and asks no other registry for anything. Every npm command run against it gets
// `--registry` and a `--userconfig` of its own (the user's npm config and cache are left alone).
// `node scripts/registry.js install` installs verdaccio (scripts/test.sh does, for the e2e tier).
'use strict';
const { execFile, spawn } = require('node:child_process');
const {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const { promisify } = require('node:util');

const { keepOutput } = require('./child-output');
const { installLocked } = require('./locked-install');
const { freePort } = require('./n8n-host');
const { until } = require('./until');

const run = promisify(execFile);

const ROOT = join(__dirname, '..');
const VERDACCIO_VERSION = '6.10.4';
const TOOL_DIR = join(ROOT, '.tools', 'registry');
const MARKER = join(TOOL_DIR, `.installed-${VERDACCIO_VERSION}`);
const VERDACCIO_BIN = join(TOOL_DIR, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
const USER = {
	name: 'propradar-e2e',
	password: 'propradar-e2e-password',
	email: 'e2e@propradar.example',
};

/** Installs verdaccio into .tools/registry, once (later calls find it installed). */
function install() {
	if (existsSync(MARKER) && existsSync(VERDACCIO_BIN)) return false;
	rmSync(TOOL_DIR, { recursive: true, force: true });
	mkdirSync(TOOL_DIR, { recursive: true });
	// verdaccio-audit asks for node-fetch by the dist-tag `cjs` (2.7.0 on npmjs.org), which not
	// every registry mirror carries: the version is given instead.
	const manifest = {
		name: 'propradar-registry',
		private: true,
		dependencies: { verdaccio: VERDACCIO_VERSION },
		overrides: { 'verdaccio-audit': { 'node-fetch': '2.7.0' } },
	};
	installLocked(TOOL_DIR, manifest, `verdaccio-${VERDACCIO_VERSION}.json`);
	writeFileSync(MARKER, '');
	return true;
}

/** The environment of an npm command: this process's, without the npm_config_* that npm and npx set for their children. */
function npmEnv() {
	return Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)),
	);
}

/** Runs `npm <args>` against the registry (its address and npm config given on the command line) in `cwd`. */
function npm(registry, args, { cwd, signal } = {}) {
	return run(
		'npm',
		[
			...args,
			`--registry=${registry.url}/`,
			`--userconfig=${registry.userconfig}`,
			`--cache=${registry.cache}`,
		],
		{ cwd, env: npmEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, signal },
	);
}

/** What verdaccio logs when its port was taken since `freePort` found it free. */
const PORT_TAKEN = /EADDRINUSE|address already in use/i;

/**
 * Starts verdaccio on 127.0.0.1 on a free port, with a temp folder for its config, storage, the
 * npm config and cache of the commands run against it, and creates its one user (whose token the
 * npm config holds, for `npm publish`). Anyone may read; only that user may publish. Its output
 * goes to `logFile` when given. `stop()` ends it and removes the folder. When another process
 * takes the port first, it starts again on another one, three times at most.
 */
async function start(options = {}) {
	for (let tries = 1; ; tries++) {
		try {
			return await startOnce(options);
		} catch (error) {
			if (tries >= 3 || !PORT_TAKEN.test(error.message)) throw error;
		}
	}
}

async function startOnce({ logFile, timeoutMs = 60_000 } = {}) {
	if (!existsSync(VERDACCIO_BIN))
		throw new Error('verdaccio is not installed: run node scripts/registry.js install');
	const dir = mkdtempSync(join(tmpdir(), 'propradar-registry-'));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const config = join(dir, 'config.yaml');
	writeFileSync(
		config,
		[
			`storage: ${JSON.stringify(join(dir, 'storage'))}`,
			'auth:',
			'  htpasswd:',
			`    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
			'    max_users: 1',
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'    unpublish: $authenticated',
			'web:',
			'  enable: false',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const child = spawn(
		process.execPath,
		[VERDACCIO_BIN, '--config', config, '--listen', `127.0.0.1:${port}`],
		{ cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const output = keepOutput(child, { logFile, keep: 32_768 });
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			await new Promise((resolve) => {
				child.once('exit', resolve);
				child.kill('SIGTERM');
				setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
			});
		}
		output.end();
		rmSync(dir, { recursive: true, force: true });
	};
	try {
		await until(
			`verdaccio to answer on ${url} within ${timeoutMs / 1000} s`,
			async () => {
				if (child.exitCode !== null)
					throw new Error(
						`verdaccio exited with ${child.exitCode}:\n${output.text().slice(-4000)}`,
					);
				const response = await fetch(`${url}/-/ping`, { signal: AbortSignal.timeout(2_000) }).catch(
					() => undefined,
				);
				return response?.ok ? true : undefined;
			},
			timeoutMs,
			200,
		);
		// What `npm adduser` does: the user is created in the htpasswd file and a token comes back.
		const created = await fetch(`${url}/-/user/org.couchdb.user:${USER.name}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				_id: `org.couchdb.user:${USER.name}`,
				name: USER.name,
				password: USER.password,
				email: USER.email,
				type: 'user',
				roles: [],
			}),
		});
		const answer = await created.json();
		if (!created.ok || !answer.token)
			throw new Error(
				`verdaccio did not create the user (${created.status}): ${JSON.stringify(answer)}`,
			);
		const userconfig = join(dir, 'npmrc');
		writeFileSync(
			userconfig,
			[`//127.0.0.1:${port}/:_authToken=${answer.token}`, 'update-notifier=false', ''].join('\n'),
		);
		return { url, port, dir, userconfig, cache: join(dir, 'npm-cache'), output: output.text, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Packs this package (`npm pack`, of what `npm run build` left in dist/) into `destination`; resolves to the tarball's path and version. */
async function pack(destination, { signal } = {}) {
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: ROOT,
		env: npmEnv(),
		encoding: 'utf8',
		signal,
	});
	const [{ filename, version }] = JSON.parse(stdout);
	return { tarball: join(destination, filename), version };
}

/**
 * A copy of a packed tarball with `version` in its package.json, written next to it as
 * `<name>-<version>.tgz` (the repository's package.json is not changed); resolves to its path and version.
 */
async function withVersion(tarball, version, { signal } = {}) {
	const unpacked = mkdtempSync(join(tmpdir(), 'propradar-repack-'));
	try {
		await run('tar', ['xzf', tarball, '-C', unpacked], { signal });
		const manifestPath = join(unpacked, 'package', 'package.json');
		const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
		writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
		const repacked = join(dirname(tarball), `${manifest.name}-${version}.tgz`);
		await run('tar', ['czf', repacked, '-C', unpacked, 'package'], { signal });
		return { tarball: repacked, version };
	} finally {
		rmSync(unpacked, { recursive: true, force: true });
	}
}

/** The next patch version of `version` (0.1.0 -> 0.1.1; 1.2.3-beta.1 -> 1.2.4). */
function nextPatch(version) {
	const [major, minor, patch] = version.split('-')[0].split('.').map(Number);
	return `${major}.${minor}.${patch + 1}`;
}

/** Publishes a tarball to the registry as its user (`npm publish <tarball>`). */
function publish(registry, tarball, { signal } = {}) {
	return npm(registry, ['publish', tarball], { cwd: registry.dir, signal });
}

module.exports = { install, start, pack, withVersion, publish, npm, nextPatch, VERDACCIO_VERSION };

if (require.main === module) {
	const [command] = process.argv.slice(2);
	if (command !== 'install') {
		console.error('usage: node scripts/registry.js install');
		process.exit(2);
	}
	if (!existsSync(MARKER))
		console.log(
			`==> installing verdaccio ${VERDACCIO_VERSION} into .tools/registry (first run only)`,
		);
	if (!install())
		console.log(`verdaccio ${VERDACCIO_VERSION}: already installed in .tools/registry`);
}
