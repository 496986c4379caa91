// The real n8n with this package installed, for the demo (`npm run demo`) and the e2e tier:
// pack the package into n8n's community nodes folder, import a credential and the workflows that
// are missing, start n8n, set up the owner and log in, activate and run workflows, read executions,
// stop. Needs the n8n that scripts/n8n-install.sh installs (the newest release scripts/n8n-versions.js
// names, into .tools/n8n, unless `prepare` is given another installed release), and Node 24 on the PATH.
'use strict';
const { execFile, spawn, spawnSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	writeFileSync,
} = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { promisify } = require('node:util');

const { keepOutput } = require('./child-output');
const { until } = require('./until');
const versions = require('./n8n-versions');

const run = promisify(execFile);

const ROOT = join(__dirname, '..');
/** The `n8n` command of an installed release (scripts/n8n-install.sh). */
const n8nBin = (version) => join(versions.home(version), 'node_modules', '.bin', 'n8n');
const N8N_BIN = n8nBin(versions.newest);
const OWNER = {
	email: 'demo@propradar.example',
	password: 'PropRadar-demo-1',
	firstName: 'Demo',
	lastName: 'Owner',
};
const CREDENTIAL = { id: 'propradar-sandbox', name: 'PropRadar sandbox' };

function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** Packs this package (`npm pack`) into `dir`; resolves to the tarball's path. */
async function pack(dir, signal) {
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
		cwd: ROOT,
		encoding: 'utf8',
		signal,
	});
	return join(dir, JSON.parse(stdout)[0].filename);
}

/**
 * The tarball the e2e tier packed once for all its suites (test/e2e/globalSetup.js), which no
 * suite changes: about a second of CPU for `npm pack` spared at each of the tier's ~25 prepares.
 */
const PACKED = 'PROPRADAR_PACKED_TARBALL';

/** Packs this package (`npm pack`, or the tarball PACKED names) and extracts it where n8n loads community packages. */
async function installPackage(userFolder, signal) {
	const target = join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-propradar');
	const packDir = mkdtempSync(join(tmpdir(), 'propradar-pack-'));
	try {
		const packed = process.env[PACKED];
		const tarball = packed && existsSync(packed) ? packed : await pack(packDir, signal);
		rmSync(target, { recursive: true, force: true });
		mkdirSync(target, { recursive: true });
		await run('tar', ['xzf', tarball, '-C', target, '--strip-components=1'], { signal });
		writeFileSync(
			join(userFolder, '.n8n', 'nodes', 'package.json'),
			JSON.stringify(
				{
					name: 'installed-nodes',
					private: true,
					dependencies: { 'n8n-nodes-propradar': 'file:./node_modules/n8n-nodes-propradar' },
				},
				null,
				2,
			),
		);
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
}

/**
 * The data of the PropRadar credential `prepare` imports, for the sandbox at `sandboxUrl`. With
 * `ceiling: 'none'` (the default, which the e2e tier's workflows are written for) it has No
 * Ceiling: each node run is bounded by its own Max Cost. With `ceiling: 'default'` (the demo) it
 * holds no spending ceiling field, as n8n stores a credential created in its editor with the
 * ceiling left as the dialog shows it (n8n keeps only values that differ from their default): n8n
 * then gives it the credential's own, Ceiling per Execution of $10.
 */
function credentialData({ sandboxUrl, token = 'sandbox-token', ceiling = 'none' }) {
	const data = { accessToken: token, baseUrl: sandboxUrl };
	if (ceiling === 'none') return { ...data, spendingCeilingMode: 'none' };
	if (ceiling === 'default') return data;
	throw new Error(`credentialData: no ceiling "${ceiling}" (none or default)`);
}

/**
 * Prepares an n8n home: the package, the PropRadar credential for `sandboxUrl` (its spending
 * ceiling as `ceiling` says, see `credentialData`), and those of
 * `workflows` (objects, given ids) that it does not hold yet. A home n8n already used keeps its
 * workflows as they are (edits, activations) and its credential, whose Base URL is set to
 * `sandboxUrl`. With `install: false` the package is left as the home has it (installed some other
 * way, or not at all). `signal` aborts the n8n commands under way. `n8nVersion` is the release
 * that runs the home (by default the newest, scripts/n8n-versions.js); `start`, `startQueue` and
 * `execute` run that one for what `prepare` returns. Returns what `start()` needs (`bin`: that
 * release's `n8n` command), and the ids of the workflows imported (`imported`).
 */
async function prepare({
	userFolder,
	port,
	sandboxUrl,
	token = 'sandbox-token',
	ceiling = 'none',
	workflows = [],
	logLevel = 'warn',
	install = true,
	n8nVersion = versions.newest,
	signal,
}) {
	n8nVersion = versions.resolve(n8nVersion);
	const bin = n8nBin(n8nVersion);
	if (!existsSync(bin))
		throw new Error(
			`n8n ${n8nVersion} is not installed: run bash scripts/n8n-install.sh ${n8nVersion}`,
		);
	userFolder = userFolder ?? mkdtempSync(join(tmpdir(), 'propradar-n8n-home-'));
	port = port ?? (await freePort());
	// n8n exits at start under NODE_ENV=test (which jest sets): run it as in production.
	const { NODE_ENV: _nodeEnv, JEST_WORKER_ID: _worker, ...inherited } = process.env;
	const env = {
		...inherited,
		NODE_ENV: 'production',
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_ENCRYPTION_KEY: 'propradar-demo-encryption-key-0001',
		N8N_LOG_LEVEL: logLevel,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		DB_SQLITE_POOL_SIZE: '2',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		// Example 4's "Send to CRM" posts to {{ $env.PROPRADAR_SANDBOX_URL }}/_sandbox/crm.
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		PROPRADAR_SANDBOX_URL: sandboxUrl,
	};
	if (install) await installPackage(userFolder, signal);
	const n8nCommand = (args, options = {}) =>
		run(bin, args, {
			env: { ...env, ...options.env },
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
			signal,
		});
	const used = existsSync(join(userFolder, '.n8n', 'database.sqlite'));
	const files = mkdtempSync(join(tmpdir(), 'propradar-import-'));
	try {
		let credential = {
			...CREDENTIAL,
			type: 'propRadarApi',
			data: credentialData({ sandboxUrl, token, ceiling }),
		};
		if (used) {
			const stored = await exportCredential(n8nCommand, join(files, 'stored.json'));
			if (stored?.data.baseUrl === sandboxUrl) credential = undefined;
			else if (stored)
				credential = {
					id: stored.id,
					name: stored.name,
					type: stored.type,
					data: { ...stored.data, baseUrl: sandboxUrl },
				};
		}
		if (credential) {
			writeFileSync(join(files, 'credentials.json'), JSON.stringify([credential]));
			await n8nCommand(['import:credentials', `--input=${join(files, 'credentials.json')}`]);
		}
		// `list:workflow` prints one id a line among n8n's log lines; archived workflows are listed too.
		const held = used
			? new Set(
					(
						await n8nCommand(['list:workflow', '--onlyId'], { env: { N8N_LOG_LEVEL: 'info' } })
					).stdout
						.split('\n')
						.map((line) => line.trim()),
				)
			: new Set();
		const missing = workflows.filter((workflow) => !held.has(workflow.id));
		if (missing.length > 0) {
			const dir = join(files, 'workflows');
			mkdirSync(dir);
			// n8n 2.0 imports a workflow only with a version id and `active` (without: "NOT NULL
			// constraint failed: workflow_entity.versionId", or ".active"); 2.41 gives every imported
			// workflow a new version id, and imports it inactive.
			missing.forEach((workflow, index) =>
				writeFileSync(
					join(dir, `${index}.json`),
					JSON.stringify({ versionId: randomUUID(), active: false, ...workflow }),
				),
			);
			await n8nCommand(['import:workflow', '--separate', `--input=${dir}`]);
		}
		return {
			env,
			port,
			userFolder,
			url: `http://127.0.0.1:${port}`,
			n8nVersion,
			bin,
			imported: missing.map((workflow) => workflow.id),
		};
	} finally {
		rmSync(files, { recursive: true, force: true });
	}
}

/** The demo credential as n8n holds it (decrypted), or undefined when the user deleted it. */
async function exportCredential(n8nCommand, file) {
	try {
		await n8nCommand([
			'export:credentials',
			`--id=${CREDENTIAL.id}`,
			'--decrypted',
			`--output=${file}`,
		]);
	} catch (error) {
		if (`${error.stdout}${error.stderr}`.includes('No credentials found')) return undefined;
		throw error;
	}
	return JSON.parse(readFileSync(file, 'utf8'))[0];
}

/** Ends a child process: SIGTERM, and SIGKILL if it has not exited 15 s later. */
function stopProcess(child) {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		child.once('exit', () => resolve());
		child.kill('SIGTERM');
		setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
	});
}

/**
 * Starts `n8n start` and waits until it is ready; `stop()` ends it (SIGTERM, SIGKILL after 15 s).
 * n8n's output goes to `logFile` when given; its last 64 KiB are kept for the error when n8n does
 * not start. `signal` stops n8n while it is starting. n8n starts its task broker first, on
 * N8N_RUNNERS_BROKER_PORT: when another process has taken that port since `prepare` found it
 * free, n8n exits with 1 and says so only at log level info (task-broker-server.js). The taker
 * may be gone a moment later (a client connection's local port is taken from the same range), so
 * any exit at start starts n8n again with a free broker port, three times at most. The running
 * n8n's `env` holds the port it got.
 */
async function start(host, options = {}) {
	for (let tries = 1; ; tries++) {
		try {
			return await startOnce(host, options);
		} catch (error) {
			if (tries >= 3 || !error.exitedAtStart) throw error;
			host = { ...host, env: { ...host.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) } };
		}
	}
}

async function startOnce(host, { logFile, timeoutMs = 120_000, signal } = {}) {
	signal?.throwIfAborted();
	const child = spawn(host.bin ?? N8N_BIN, ['start'], {
		env: host.env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const output = keepOutput(child, { logFile, keep: 65_536 });
	const stop = () => stopProcess(child);
	try {
		await until(
			`n8n to be ready within ${timeoutMs / 1000} s`,
			async () => {
				if (child.exitCode !== null)
					throw new Error(`n8n exited with ${child.exitCode}:\n${output.text().slice(-4000)}`);
				signal?.throwIfAborted();
				const answers = async (path) =>
					(
						await fetch(`${host.url}${path}`, { signal: AbortSignal.timeout(2_000) }).catch(
							() => undefined,
						)
					)?.ok === true;
				// n8n 2.0 reports ready once its database is migrated, seconds before its REST API is
				// set up (2.41 waits for that too): ready is both.
				return (await answers('/healthz/readiness')) && (await answers('/rest/settings'))
					? true
					: undefined;
			},
			timeoutMs,
			250,
		);
	} catch (error) {
		await stop();
		if (signal?.aborted) throw error;
		if (child.exitCode !== null && error.message.startsWith('n8n exited'))
			throw Object.assign(error, { exitedAtStart: true });
		throw new Error(`${error.message}:\n${output.text().slice(-4000)}`);
	}
	return { ...host, child, stop };
}

/**
 * Starts n8n in queue mode (EXECUTIONS_MODE=queue) on one home: Debian's redis-server
 * (scripts/redis-install.sh installs it on the first run) on a free port, the main process
 * (`n8n start`: editor, REST API, activation), `workers` workers (`n8n worker`, executions taken
 * from Redis, `concurrency` at a time each) and one webhook process (`n8n webhook`, production
 * webhook calls put on the queue). N8N_WEBHOOK_URL is the webhook process's address, so that is
 * the address a trigger registers. `env` is added to every process's environment. Resolves once
 * the main and the webhook process answer; the output of the others is kept (last 32 KiB each)
 * for failure messages (`outputs()`). `stop()` ends them all, the main last but Redis. Their
 * ports are free a moment before each process listens, and another process may take one first:
 * when a process exits saying its port is in use, all of them are stopped and started again on
 * new ports, three times at most (`freePort` picks them).
 */
async function startQueue(host, options = {}) {
	for (let tries = 1; ; tries++) {
		try {
			return await startQueueOnce(host, options);
		} catch (error) {
			if (tries >= 3 || !PORT_TAKEN.test(error.message)) throw error;
		}
	}
}

/** What Redis and n8n 2.41's processes log when a port they were given is taken (abstract-server.js, task-broker-server.js, the runners' health-check-server.js). */
const PORT_TAKEN = /port \d+ is already in use|Address already in use/i;

async function startQueueOnce(
	host,
	{ workers = 1, concurrency = 10, env = {}, logFile, freePort: portPicker = freePort } = {},
) {
	const install = spawnSync('bash', [join(ROOT, 'scripts', 'redis-install.sh')], {
		encoding: 'utf8',
	});
	if (install.status !== 0)
		throw new Error(`redis-server could not be installed: ${install.stdout}${install.stderr}`);
	const children = [];
	const outputs = new Map();
	const child = (name, command, args, childEnv) => {
		const spawned = spawn(command, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
		outputs.set(name, '');
		const keep = (chunk) =>
			outputs.set(name, (outputs.get(name) + chunk.toString()).slice(-32_768));
		spawned.stdout.on('data', keep);
		spawned.stderr.on('data', keep);
		children.push(spawned);
	};
	let main;
	const stop = async () => {
		const [redis, ...n8nProcesses] = children;
		for (const spawned of n8nProcesses.reverse()) await stopProcess(spawned);
		await main?.stop();
		if (redis) await stopProcess(redis);
	};
	try {
		const redisPort = await portPicker();
		child(
			'redis',
			'/usr/bin/redis-server',
			['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
			process.env,
		);
		await until(
			'Redis to accept connections within 30 s',
			async () => {
				if (children[0].exitCode !== null)
					throw new Error(
						`redis-server exited with ${children[0].exitCode}:\n${outputs.get('redis')}`,
					);
				return outputs.get('redis').includes('Ready to accept connections') ? true : undefined;
			},
			30_000,
			100,
		);
		const webhookPort = await portPicker();
		const webhookUrl = `http://127.0.0.1:${webhookPort}`;
		const queue = {
			...env,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redisPort),
			N8N_WEBHOOK_URL: `${webhookUrl}/`,
			WEBHOOK_URL: `${webhookUrl}/`,
		};
		const mainHost = { ...host, env: { ...host.env, ...queue } };
		main = await start(mainHost, { logFile });
		for (let index = 1; index <= workers; index++) {
			child(`worker ${index}`, host.bin ?? N8N_BIN, ['worker', `--concurrency=${concurrency}`], {
				...host.env,
				...queue,
				N8N_RUNNERS_BROKER_PORT: String(await portPicker()),
				QUEUE_HEALTH_CHECK_PORT: String(await portPicker()),
			});
		}
		child('webhook', host.bin ?? N8N_BIN, ['webhook'], {
			...host.env,
			...queue,
			N8N_PORT: String(webhookPort),
			N8N_RUNNERS_BROKER_PORT: String(await portPicker()),
		});
		const output = () =>
			[...outputs].map(([name, text]) => `--- ${name}:\n${text.slice(-3000)}`).join('\n');
		await until(
			'the webhook process to answer within 120 s',
			async () => {
				const exited = children.find((spawned) => spawned.exitCode !== null);
				if (exited)
					throw new Error(`a queue-mode process exited with ${exited.exitCode}:\n${output()}`);
				return (await fetch(`${webhookUrl}/healthz`).catch(() => undefined))?.ok ? true : undefined;
			},
			120_000,
			300,
		);
		return { main, mainHost, webhookUrl, outputs: output, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

const DATABASE_WAIT_MS = 1_000;
const DATABASE_WAIT_LIMIT_MS = 60_000;

/** Sets up the owner account (first start) and logs in; returns a REST client with the session cookie. */
async function login(host) {
	const setup = await fetch(`${host.url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	if (!setup.ok && setup.status !== 400)
		throw new Error(`owner setup answered ${setup.status}: ${await setup.text()}`);
	const response = await fetch(`${host.url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
	});
	if (!response.ok) throw new Error(`login answered ${response.status}: ${await response.text()}`);
	const cookie = response.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
	const rest = async (method, path, body) => {
		let answer;
		let text;
		// n8n answers every request 503 "Database is not ready!" (abstract-server.js, before any
		// route runs) while a database ping of its connection monitor has timed out, as on a
		// loaded machine: sent again once the next ping succeeds, which nothing before it handled.
		for (let waited = 0, resent = 0; ; waited += DATABASE_WAIT_MS) {
			try {
				answer = await fetch(`${host.url}/rest${path}`, {
					method,
					headers: { cookie, 'content-type': 'application/json', 'browser-id': 'propradar-e2e' },
					body: body === undefined ? undefined : JSON.stringify(body),
				});
				text = await answer.text();
			} catch (error) {
				// A kept-alive connection n8n closed as it was reused: a read is sent again.
				if (method !== 'GET' || error.cause?.code !== 'UND_ERR_SOCKET' || ++resent > 2) throw error;
				continue;
			}
			if (answer.status !== 503 || !text.includes('Database is not ready')) break;
			if (waited >= DATABASE_WAIT_LIMIT_MS) break;
			await new Promise((resolve) => setTimeout(resolve, DATABASE_WAIT_MS));
		}
		if (!answer.ok)
			throw new Error(`${method} /rest${path} answered ${answer.status}: ${text.slice(0, 1000)}`);
		const json = text ? JSON.parse(text) : {};
		return json.data ?? json;
	};
	return { cookie, rest, url: host.url, bin: host.bin ?? N8N_BIN };
}

/** Activates a workflow through the REST API, as the editor's toggle does. */
/**
 * Publishes (activates) a workflow. n8n 2.41 checks every node's parameters first
 * (`WorkflowValidationService.validateNodeParameters`, n8n/dist/workflows/workflow-validation.service.js),
 * and a resource locator's regex is run by n8n-workflow's safe-regex in a `vm` script with a
 * 250 ms timeout (`REGEX_TIMEOUT_MS`, safe-regex.js) measured on the wall clock: on a machine whose
 * cores are all busy, even `^\d+$` can run out of it, and n8n refuses the publish with "Error
 * validating node parameters" and changes nothing. That answer is asked again, twice at most; any
 * other refusal, and the same one a third time, fails as it is.
 */
async function activate(client, workflowId) {
	for (let attempt = 1; ; attempt++) {
		const workflow = await client.rest('GET', `/workflows/${workflowId}`);
		try {
			return await client.rest('POST', `/workflows/${workflowId}/activate`, {
				versionId: workflow.versionId,
			});
		} catch (error) {
			if (attempt >= 3 || !/Error validating node parameters/.test(error.message)) throw error;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}
}

async function deactivate(client, workflowId) {
	const workflow = await client.rest('GET', `/workflows/${workflowId}`);
	return client.rest('POST', `/workflows/${workflowId}/deactivate`, {
		versionId: workflow.versionId,
	});
}

/**
 * The execution `n8n execute --id --rawOutput` printed (one pretty-printed object, from a line `{`
 * to the next line `}`; n8n's own log lines may stand before and after it), given how its process
 * ended. n8n 2.41's process now and then dies by SIGSEGV right after printing a finished execution
 * (seen with a workflow that ends within a fraction of a second): the execution is whole, so it is
 * used, and the signal is said. Throws with n8n's output on any other failure, a timeout
 * (SIGKILL) included.
 */
function printedExecution(workflowId, { stdout, stderr = '', code, signal }) {
	const lines = stdout.split('\n');
	const first = lines.indexOf('{');
	const last = lines.indexOf('}', first);
	let printed;
	let unreadable = 'no run data';
	if (first >= 0 && last >= 0) {
		try {
			printed = JSON.parse(lines.slice(first, last + 1).join('\n'));
		} catch (parseError) {
			unreadable = parseError.message;
		}
	}
	const diedAfterFinishing =
		code === null && Boolean(signal) && signal !== 'SIGKILL' && printed?.finished === true;
	if (code !== 0 && !diedAfterFinishing) {
		throw new Error(
			`n8n execute --id=${workflowId} failed (${code ?? signal}):\n${stderr.slice(-3000)}\n${stdout.slice(-1500)}`,
		);
	}
	if (!printed)
		throw new Error(
			`n8n execute printed no readable run data (${unreadable}):\n${stdout.slice(-3000)}`,
		);
	if (diedAfterFinishing)
		console.log(
			`note: n8n execute --id=${workflowId} was ended by ${signal} after printing its finished execution, which is used`,
		);
	return printed;
}

/** The node a manual run starts from, as `n8n execute` picks it (findCliWorkflowStart in n8n's utils). */
const START_TYPES = ['n8n-nodes-base.executeWorkflowTrigger', 'n8n-nodes-base.manualTrigger'];

/** Execution states after which nothing more happens to an execution (ExecutionStatus in n8n-workflow). */
const ENDED = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * Runs a workflow in the running n8n that `client` is logged in to, as the editor's "Execute
 * workflow" button does (POST /rest/workflows/:id/run from the workflow's Manual Trigger, the node
 * `n8n execute` starts from too), waits for the execution to end (polling GET /rest/executions/:id
 * every 200 ms, for up to `timeoutMs`) and resolves to it in the shape `n8n execute --rawOutput`
 * prints: `data` holds `resultData.runData` and `resultData.error`. Rejects with the error's message
 * when the run fails, as `execute` does. A run in the server costs no n8n start-up: `execute` starts
 * a whole n8n for each run. n8n 2.0 reads the workflow from the request's `workflowData`; 2.41 from
 * its database, and ignores that field.
 */
async function runWorkflow(client, workflowId, { timeoutMs = 180_000 } = {}) {
	const workflow = await client.rest('GET', `/workflows/${workflowId}`);
	const start = workflow.nodes.find((node) => START_TYPES.includes(node.type));
	if (!start)
		throw new Error(`workflow ${workflowId} has no Manual Trigger to run it from (${START_TYPES})`);
	const answer = await client.rest('POST', `/workflows/${workflowId}/run`, {
		workflowData: workflow,
		triggerToStartFrom: { name: start.name },
	});
	if (!answer.executionId)
		throw new Error(`n8n started no execution of ${workflowId}: ${JSON.stringify(answer)}`);
	const execution = await until(
		`execution ${answer.executionId} of ${workflowId} to end within ${timeoutMs / 1000} s`,
		async () => {
			const read = await client.rest('GET', `/executions/${answer.executionId}`);
			return ENDED.has(read.status) ? read : undefined;
		},
		timeoutMs,
		200,
	);
	// n8n sends the run data as `flatted` text (what its editor reads); the release's own copy reads it.
	const flatted = require(join(client.bin ?? N8N_BIN, '..', '..', 'flatted'));
	const run = { ...execution, data: flatted.parse(execution.data) };
	const error = run.data.resultData.error;
	if (error || run.status !== 'success')
		throw new Error(
			`n8n's run of workflow ${workflowId} (execution ${answer.executionId}) ended ${run.status}: ${error?.message ?? 'without an error'}`,
		);
	return run;
}

/** What n8n 2.41 logs when its task broker cannot listen (task-broker-server.js), just before it exits with 1. */
const BROKER_PORT_TAKEN = /n8n Task Broker's port \d+ is already in use/;

/**
 * Runs `attempt(port)` with a free port for the task broker that every `n8n execute` starts. A
 * port free a moment ago can be taken by another process before n8n listens on it; n8n then exits
 * in its start-up (BaseCommand.init starts the broker before the command's `run`), before the
 * workflow runs, so the attempt is made again on another port, three times at most. Any other
 * failure is thrown as it is.
 */
async function onFreeBrokerPort(attempt, brokerPort = freePort) {
	for (let tries = 1; ; tries++) {
		try {
			return await attempt(String(await brokerPort()));
		} catch (error) {
			if (tries >= 3 || !BROKER_PORT_TAKEN.test(error.message)) throw error;
		}
	}
}

/**
 * Runs a workflow with the CLI (`n8n execute --id --rawOutput`) next to the running server, and
 * resolves to the run data. Rejects with n8n's output when the run fails. Asynchronous, so that a
 * sandbox running in the same process keeps answering while n8n runs the workflow. Its task broker
 * gets a port of its own (`onFreeBrokerPort`; `brokerPort` picks it).
 */
function execute(host, workflowId, { brokerPort, timeoutMs = 180_000 } = {}) {
	return onFreeBrokerPort((port) => executeOnce(host, workflowId, port, timeoutMs), brokerPort);
}

function executeOnce(host, workflowId, port, timeoutMs) {
	const env = { ...host.env, N8N_LOG_LEVEL: 'info', N8N_RUNNERS_BROKER_PORT: port };
	// n8n writes its output to files, not pipes: Node writes to a pipe asynchronously, and the
	// process.exit that ends `n8n execute` drops what is not written yet (a long execution's end).
	const folder = mkdtempSync(join(tmpdir(), 'n8n-execute-'));
	const files = ['stdout', 'stderr'].map((name) => join(folder, name));
	const fds = files.map((file) => openSync(file, 'w'));
	const child = spawn(host.bin ?? N8N_BIN, ['execute', `--id=${workflowId}`, '--rawOutput'], {
		env,
		stdio: ['ignore', ...fds],
	});
	fds.forEach((fd) => closeSync(fd));
	const timeout = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
	return new Promise((resolve, reject) => {
		child.on('error', (error) => {
			clearTimeout(timeout);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timeout);
			const [stdout, stderr] = files.map((file) => readFileSync(file, 'utf8'));
			rmSync(folder, { recursive: true, force: true });
			try {
				resolve(printedExecution(workflowId, { stdout, stderr, code, signal }));
			} catch (failure) {
				reject(failure);
			}
		});
	});
}

module.exports = {
	pack,
	PACKED,
	prepare,
	credentialData,
	start,
	startQueue,
	login,
	activate,
	deactivate,
	execute,
	runWorkflow,
	onFreeBrokerPort,
	printedExecution,
	freePort,
	OWNER,
	CREDENTIAL,
	N8N_VERSIONS: { newest: versions.newest, oldest: versions.oldest },
};
