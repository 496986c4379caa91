// `npm run demo` after the set-up in scripts/demo.sh: the sandbox and n8n with this package, the
// PropRadar credential for the sandbox and the example workflows (imported once: later starts keep
// what the user did with them). Ctrl-C, or SIGINT / SIGTERM to `npm run demo`, stops everything.
'use strict';
const { spawn } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const { seedDemoData } = require('./demo-data');
const n8n = require('./n8n-host');
const { until } = require('./until');

const ROOT = join(__dirname, '..');
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 8787);
const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const DEMO_DIR = resolve(process.env.DEMO_DIR ?? join(ROOT, '.tools', 'demo'));

/** Aborted on the first stop: ends whatever is still starting (n8n commands, n8n itself). */
const stopping = new AbortController();
/** The sandbox and n8n, once started; `starting` settles when main() has finished or given up. */
let sandbox;
let running;
let starting;

function exited(child) {
	return new Promise((resolve) =>
		child.exitCode !== null || child.signalCode !== null
			? resolve()
			: child.once('exit', () => resolve()),
	);
}

/** Stops n8n and the sandbox (whichever is running), then exits. */
async function stop(exitCode) {
	if (stopping.signal.aborted) return;
	stopping.abort();
	console.log('\n==> stopping n8n and the sandbox');
	await starting?.catch(() => undefined);
	await running?.stop();
	if (sandbox) {
		sandbox.kill('SIGTERM');
		await exited(sandbox);
	}
	process.exit(exitCode);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

/** Waits until `url` answers (anything below 500); gives up when the demo is stopping. */
function answering(url, timeoutMs) {
	return until(
		`${url} to answer (${timeoutMs / 1000} s)`,
		async () => {
			stopping.signal.throwIfAborted();
			const response = await fetch(url).catch(() => undefined);
			return response && response.status < 500 ? true : undefined;
		},
		timeoutMs,
		200,
	);
}

/**
 * n8n 2.41 keeps a published workflow's webhooks from one start to the next without asking its
 * trigger whether what the trigger registered elsewhere still fits: after a start on another
 * address (N8N_PORT), the published workflows are published again (unpublish, publish, as the
 * editor's toggle does), so that their triggers register n8n's new address.
 */
async function republishOnNewAddress(client, url) {
	const file = join(DEMO_DIR, 'n8n-address');
	const previous = existsSync(file) ? readFileSync(file, 'utf8') : url;
	if (previous !== url) {
		const published = await client.rest('GET', '/active-workflows');
		for (const workflowId of published) {
			await n8n.deactivate(client, workflowId);
			await n8n.activate(client, workflowId);
		}
		console.log(
			`==> n8n's address changed (was ${previous}): published again ${published.length} published workflow(s), so that their triggers register the new one`,
		);
	}
	writeFileSync(file, url);
}

function importReport(workflows, imported) {
	if (imported.length === workflows.length)
		return `imported the ${workflows.length} example workflows`;
	if (imported.length === 0) return 'the example workflows are kept as you left them';
	const names = workflows
		.filter((workflow) => imported.includes(workflow.id))
		.map((workflow) => workflow.name);
	return `imported the missing example workflows: ${names.join('; ')}`;
}

async function main() {
	mkdirSync(DEMO_DIR, { recursive: true });
	const sandboxUrl = `http://127.0.0.1:${SANDBOX_PORT}`;
	sandbox = spawn(
		process.execPath,
		[
			join(ROOT, 'build', 'sandbox', 'cli.js'),
			'--port',
			String(SANDBOX_PORT),
			'--data',
			join(DEMO_DIR, 'sandbox.json'),
		],
		{ stdio: ['ignore', 'inherit', 'inherit'] },
	);
	sandbox.on('exit', (code) => {
		if (!stopping.signal.aborted) {
			console.error(`the sandbox stopped (exit ${code})`);
			void stop(1);
		}
	});
	await answering(`${sandboxUrl}/v1/lists`, 20_000);
	await seedDemoData(sandboxUrl);

	const workflows = readdirSync(join(ROOT, 'examples'))
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(readFileSync(join(ROOT, 'examples', file), 'utf8')));
	console.log(`==> preparing n8n in ${DEMO_DIR} (package, credential, example workflows)`);
	// The credential gets the spending ceiling a new one gets ($10 per execution), not No Ceiling.
	const host = await n8n.prepare({
		userFolder: join(DEMO_DIR, 'n8n'),
		port: N8N_PORT,
		sandboxUrl,
		ceiling: 'default',
		workflows,
		signal: stopping.signal,
	});
	console.log(`==> ${importReport(workflows, host.imported)}`);
	const logFile = join(DEMO_DIR, 'n8n.log');
	console.log(`==> starting n8n (its log: ${logFile})`);
	running = await n8n.start(host, { logFile, signal: stopping.signal });
	running.child.on('exit', (code) => {
		if (!stopping.signal.aborted) {
			console.error(`n8n stopped (exit ${code}); its log: ${logFile}`);
			void stop(1);
		}
	});
	await republishOnNewAddress(await n8n.login(running), running.url);

	console.log(`
PropRadar demo is running.
  Examples     ${running.url}/home/workflows   (n8n's Overview > Workflows)
               login: ${n8n.OWNER.email} / ${n8n.OWNER.password}
  sandbox API  ${sandboxUrl}   token: sandbox-token (credential "${n8n.CREDENTIAL.name}")
  "PropRadar: new foreclosure matches to a CRM" is a trigger: publish (activate) it, then
    curl -X POST ${sandboxUrl}/_sandbox/simulate/new-match -H 'content-type: application/json' -d '{"ListID":1}'
  and see the lead arrive in ${sandboxUrl}/_sandbox/crm (and the execution in n8n)
Press Ctrl-C to stop.`);
}

starting = main();
starting.catch((error) => {
	if (stopping.signal.aborted) return;
	console.error(error);
	void stop(1);
});
