/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { execute, type N8nHost, printedExecution } from '../../scripts/n8n-host';

/**
 * How the e2e tier and the benchmarks read what `n8n execute --rawOutput` printed
 * (scripts/n8n-host.js), given how its process ended.
 */
const execution = (finished: boolean) => ({
	data: { resultData: { runData: { Measured: [{ executionTime: 12 }] } } },
	status: finished ? 'success' : 'running',
	finished,
});
const printed = (finished = true) =>
	`n8n log line\n${JSON.stringify(execution(finished), null, 2)}\nanother log line\n`;

afterEach(() => jest.restoreAllMocks());

test("a run that exits with 0: the execution it printed, between n8n's log lines", () => {
	expect(printedExecution('wf', { stdout: printed(), code: 0, signal: null })).toEqual(
		execution(true),
	);
});

test('a process ended by a signal after printing a finished execution (n8n 2.41 now and then segfaults on its way out): the execution, and a note naming the signal', () => {
	const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
	expect(printedExecution('wf', { stdout: printed(), code: null, signal: 'SIGSEGV' })).toEqual(
		execution(true),
	);
	expect(log).toHaveBeenCalledWith(
		expect.stringContaining('ended by SIGSEGV after printing its finished execution'),
	);
});

test("a signal before the execution finished, a timeout (SIGKILL), a failed exit or nothing printed: an error with n8n's output", () => {
	expect(() =>
		printedExecution('wf', { stdout: printed(false), code: null, signal: 'SIGSEGV' }),
	).toThrow('n8n execute --id=wf failed (SIGSEGV)');
	expect(() =>
		printedExecution('wf', { stdout: printed(), code: null, signal: 'SIGKILL' }),
	).toThrow('n8n execute --id=wf failed (SIGKILL)');
	expect(() =>
		printedExecution('wf', {
			stdout: printed(),
			stderr: 'Workflow could not be found',
			code: 1,
			signal: null,
		}),
	).toThrow('Workflow could not be found');
	expect(() =>
		printedExecution('wf', { stdout: 'only log lines\n', code: 0, signal: null }),
	).toThrow('printed no readable run data (no run data)');
	expect(() =>
		printedExecution('wf', { stdout: '{\n  "cut off":\n}\n', code: 0, signal: null }),
	).toThrow('printed no readable run data');
});

test('a long execution printed just before n8n exits arrives whole (a pipe would lose its end: Node writes to a pipe asynchronously, and process.exit does not wait)', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'fake-n8n-'));
	const bin = join(folder, 'n8n');
	// What `n8n execute --rawOutput` does: a log line, the execution pretty-printed, then process.exit.
	writeFileSync(
		bin,
		`#!${process.execPath}\n` +
			`const items = Array.from({ length: 50000 }, (_, item) => ({ json: { item }, pairedItem: { item } }));\n` +
			`const execution = { data: { resultData: { runData: { Import: [{ data: { main: [items] } }] } } }, finished: true };\n` +
			`process.stdout.write('n8n log line\\n' + JSON.stringify(execution, null, 2) + '\\n');\n` +
			`process.exit(0);\n`,
		{ mode: 0o755 },
	);
	try {
		const run = (await execute({ bin, env: {} } as unknown as N8nHost, 'wf', {
			brokerPort: async () => 5679,
		})) as { data: { resultData: { runData: { Import: [{ data: { main: [unknown[]] } }] } } } };
		expect(run.data.resultData.runData.Import[0].data.main[0]).toHaveLength(50000);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
});
