// `npm run demo` after the set-up in scripts/demo.sh: the sandbox on 8787 and n8n on 5678 with this
// package, a PropRadar credential for the sandbox and the example workflows. Ctrl-C stops both.
'use strict';
const { spawn } = require('node:child_process');
const { mkdirSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const { seedDemoData } = require('./demo-data');
const n8n = require('./n8n-host');

const ROOT = join(__dirname, '..');
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 8787);
const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const DEMO_DIR = join(ROOT, '.tools', 'demo');
/** The sandbox process, so that a failed start does not leave it holding its port. */
let sandbox;

async function waitFor(url, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		try {
			if ((await fetch(url)).status < 500) return;
		} catch {
			// not up yet
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

async function main() {
	mkdirSync(DEMO_DIR, { recursive: true });
	const sandboxUrl = `http://127.0.0.1:${SANDBOX_PORT}`;
	sandbox = spawn(process.execPath, [join(ROOT, 'build', 'sandbox', 'cli.js'), '--port', String(SANDBOX_PORT), '--data', join(DEMO_DIR, 'sandbox.json')], { stdio: ['ignore', 'inherit', 'inherit'] });
	await waitFor(`${sandboxUrl}/v1/lists`, 20_000);
	await seedDemoData(sandboxUrl);

	const workflows = readdirSync(join(ROOT, 'examples'))
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(readFileSync(join(ROOT, 'examples', file), 'utf8')));
	console.log(`==> preparing n8n (package, credential, ${workflows.length} example workflows)`);
	const host = await n8n.prepare({ userFolder: join(DEMO_DIR, 'n8n'), port: N8N_PORT, sandboxUrl, workflows });
	const logFile = join(DEMO_DIR, 'n8n.log');
	console.log(`==> starting n8n (its log: ${logFile})`);
	const running = await n8n.start(host, { logFile });
	await n8n.login(running);

	console.log(`
PropRadar demo is running.
  n8n editor   ${running.url}/   login: ${n8n.OWNER.email} / ${n8n.OWNER.password}
  sandbox API  ${sandboxUrl}   token: sandbox-token (credential "${n8n.CREDENTIAL.name}")
  Examples: open Overview > Workflows. "new foreclosure matches to a CRM" is a trigger: publish (activate) it, then
    curl -X POST ${sandboxUrl}/_sandbox/simulate/new-match -H 'content-type: application/json' -d '{"ListID":1}'
  and see the lead arrive in ${sandboxUrl}/_sandbox/crm (and the execution in n8n)
Press Ctrl-C to stop.`);

	let stopping = false;
	const stop = async (exitCode) => {
		if (stopping) return;
		stopping = true;
		console.log('\n==> stopping n8n and the sandbox');
		await running.stop();
		sandbox.kill('SIGTERM');
		process.exit(exitCode);
	};
	process.on('SIGINT', () => stop(0));
	process.on('SIGTERM', () => stop(0));
	running.child.on('exit', (code) => {
		if (!stopping) {
			console.error(`n8n stopped (exit ${code}); its log: ${logFile}`);
			void stop(1);
		}
	});
	sandbox.on('exit', (code) => {
		if (!stopping) {
			console.error(`the sandbox stopped (exit ${code})`);
			void stop(1);
		}
	});
}

main().catch((error) => {
	console.error(error);
	sandbox?.kill('SIGTERM');
	process.exit(1);
});
