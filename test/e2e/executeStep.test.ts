/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * What n8n 2.41's "Execute step" does to a PropRadar purchase node, in the real editor (n8n with the
 * packed package, Debian chromium driven by playwright-core), clicked as a user does: the README's
 * "Spend safety" bullet "Execute step runs the node again." and docs/money.md "A stopped run in the
 * editor" (its last paragraph) say that Execute step runs the chosen node and, before it, every node
 * with no output in the editor (not run yet, failed, or changed since it ran; n8n clears the output
 * of a changed node and of every node after it); that a purchase node that runs again buys again;
 * and that a node whose output is pinned is not run in the editor.
 *
 * Example 6 (Run → Create static list → Find properties → Read properties → Get Owners → Purchase
 * Phone → Add to list, Send to CRM), with Skip Records Bought Before off (with it on, a purchase node
 * run again skips what it bought: test/e2e/leadPipelineRuns.test.ts), and the account's free export
 * credits used up first, so that every record bought costs its list price:
 * (1) Execute workflow: owners and phones are bought (the list reads are free);
 * (2) Execute step on Purchase Phone: only Purchase Phone runs; its phones are "already purchased",
 *     so nothing is bought;
 * (3) Get Owners' Max Cost changed in its panel (3 → 4), Execute step on Purchase Phone: Get Owners
 *     runs again and buys its owners again; Read properties does not run;
 * (3b) Read properties changed (Return All switched off), Execute step on Purchase Phone: Read
 *     properties runs again, and so does Get Owners, unchanged, because it comes after a changed
 *     node ("and of every node after it"), and buys again; this step is not in the four the test
 *     was asked for, and proves the clause they leave out;
 * (4) Get Owners' output pinned (the pin button of its output pane), its Max Cost changed again
 *     (4 → 5), Execute step on Purchase Phone: Get Owners does not run, nothing is bought.
 *
 * Evidence at each step: the sandbox's charge log (what was bought), the execution n8n stored (a
 * node that did not run keeps, in a partial execution's run data, the run it had, with its start
 * time), and the canvas. n8n's side (n8n-core 2.41.1, dist/execution-engine/): the editor sends the
 * run data it shows and the names of the nodes changed since they ran (`dirtyNodeNames`);
 * `runPartialWorkflow2` clears the run data of those nodes and of every node after them
 * (`cleanRunData`), then starts from the first node on the way to the chosen one that is "dirty"
 * (`findStartNodes`/`isDirty`: an error, or no run data, and no pinned data), and the pinned data
 * of a node that is not run is handed on as its output (`recreateNodeExecutionStack`).
 *
 * The screenshot of (4), the canvas with Get Owners pinned, goes to
 * .tools/screenshots/execute-step-pinned.png.
 */
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import type { ChargeEntry } from '../../sandbox/charges';
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { useUpFreeCredits } from '../support/freeCredits';
import { editor, SCREENSHOTS, SHOWN, startEditor, stopN8n } from '../support/realN8n';
import { added, sandboxCharges, sum } from '../support/sandboxApi';
import {
	executionStartedBy,
	outputOf,
	unflatten,
	type NodeRun,
	type StoredExecution,
} from '../support/storedExecution';
import { example } from '../support/workflows';
import type { N8nClient, RunningN8n } from '../../scripts/n8n-host';

jest.setTimeout(600_000);

/** Example 6 as it is in examples/ (its id: PropRadarEx00006), with Skip Records Bought Before off. */
const pipeline = example<{ id: string; nodes: Array<{ parameters: Record<string, unknown> }> }>(
	'06-lead-pipeline.json',
);
for (const node of pipeline.nodes) delete node.parameters.skipBoughtBefore;
const WORKFLOW = pipeline.id;

let sandbox: RunningSandbox;
let host: RunningN8n;
let client: N8nClient;
let browser: Browser;
let page: Page;

const charges = () => sandboxCharges(sandbox.url);
const ofKind = (log: ChargeEntry[], kind: string) => log.filter((charge) => charge.kind === kind);
const listed = (log: ChargeEntry[]) =>
	log.length === 0
		? 'nothing'
		: log
				.map(
					(charge) =>
						`${charge.kind} ×${charge.quantity} $${(charge.cents / 100).toFixed(2)} (${charge.what})`,
				)
				.join(', ');

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	await useUpFreeCredits(sandbox.url);
	({ host, client, browser, page } = await startEditor({
		sandboxUrl: sandbox.url,
		workflows: [pipeline],
	}));
});

afterAll(async () => {
	await browser?.close();
	await stopN8n(host, sandbox);
});

const { canvasNode, panel, openWorkflow, openNode, closeNode, retype, canvasFlags, canvasShowing } =
	editor(
		() => page,
		() => host.url,
		'execute-step-failed.png',
	);

/**
 * What the canvas shows of a node (n8n 2.41's CanvasNodeDefault and CanvasNodeStatusIcons):
 * "success" (the success class and the check icon), "changed" (the warning class and icon n8n puts
 * on a node whose parameters changed since it ran, over its old output), "pinned" (the pinned class
 * and the pin icon), "error", "not run" (none of these), or, for anything else, the flags read.
 */
async function nodeState(name: string): Promise<string> {
	const flags = await canvasFlags(name);
	const {
		successClass,
		errorClass,
		warningClass,
		pinnedClass,
		checkIcon,
		issuesIcon,
		warningIcon,
		pinIcon,
	} = flags;
	if (
		successClass &&
		checkIcon &&
		!errorClass &&
		!issuesIcon &&
		!warningClass &&
		!warningIcon &&
		!pinnedClass &&
		!pinIcon
	)
		return 'success';
	if (
		warningClass &&
		warningIcon &&
		!checkIcon &&
		!errorClass &&
		!issuesIcon &&
		!pinnedClass &&
		!pinIcon
	)
		return 'changed';
	if (
		pinnedClass &&
		pinIcon &&
		!successClass &&
		!checkIcon &&
		!errorClass &&
		!issuesIcon &&
		!warningClass &&
		!warningIcon
	)
		return 'pinned';
	if (errorClass && issuesIcon && !successClass && !checkIcon) return 'error';
	if (Object.values(flags).every((flag) => !flag)) return 'not run';
	return JSON.stringify(flags);
}

const expectCanvas = (expected: Record<string, string>) => canvasShowing(nodeState, expected);

/** The pinned data n8n ran an execution with, by node name. */
async function pinnedIn(execution: StoredExecution): Promise<string[]> {
	const stored = (await client.rest('GET', `/executions/${execution.id}`)) as { data: string };
	const data = unflatten(stored.data) as { resultData: { pinData?: Record<string, unknown> } };
	return Object.keys(data.resultData.pinData ?? {}).sort();
}

type TimedRun = NodeRun & { startTime?: number };
const lastRun = (execution: StoredExecution | undefined, node: string): TimedRun | undefined => {
	const runs = execution?.runData[node];
	return runs?.[runs.length - 1] as TimedRun | undefined;
};

/**
 * The nodes that ran in `execution`: those whose last run is not the one they had in `previous`. A
 * partial execution starts from the run data the editor sent, so a node it did not run keeps its
 * earlier run (the same start time), or has none when n8n cleared it.
 */
function ranIn(execution: StoredExecution, previous: StoredExecution): string[] {
	return Object.keys(execution.runData)
		.filter((node) => lastRun(execution, node)?.startTime !== lastRun(previous, node)?.startTime)
		.sort();
}

/** Opens a node's panel and sets its Max Cost, as a user does; closes the panel. */
async function setMaxCost(node: string, value: string): Promise<void> {
	await openNode(node);
	const maxCost = panel().locator('[data-test-id="parameter-input-maxCost"] input').first();
	await retype(maxCost, value);
	expect(Number(await maxCost.inputValue())).toBe(Number(value));
	await closeNode();
}

/**
 * Opens Purchase Phone's panel and clicks its "Execute step"; resolves, once the execution is over,
 * to it and to the charges it added. The panel is closed again.
 */
async function executeStepOnPurchasePhone(): Promise<{
	execution: StoredExecution;
	charged: ChargeEntry[];
}> {
	await openNode('Purchase Phone');
	const button = panel().locator('[data-test-id="node-execute-button"]').first();
	await button.waitFor(SHOWN);
	expect((await button.innerText()).trim()).toBe('Execute step');
	const before = await charges();
	const execution = await executionStartedBy(client, WORKFLOW, () => button.click());
	// The sandbox answered every call of the execution before n8n stored it as over.
	const charged = added(before, await charges());
	await closeNode();
	return { execution, charged };
}

const PIPELINE = [
	'Run',
	'Create static list',
	'Find properties',
	'Read properties',
	'Get Owners',
	'Purchase Phone',
	'Add to list',
	'Send to CRM',
];
const executions: Record<string, StoredExecution> = {};
let firstCharges: ChargeEntry[] = [];

test('(1) Execute workflow buys owners (Get Owners) and phones (Purchase Phone); the list reads are free', async () => {
	await openWorkflow(WORKFLOW, 'Purchase Phone');
	const before = await charges();
	const execution = await executionStartedBy(client, WORKFLOW, () =>
		page.locator('[data-test-id="execute-workflow-button"]').first().click(),
	);
	const shown = await expectCanvas({
		...Object.fromEntries(PIPELINE.map((name) => [name, 'success'])),
		'Not bought': 'not run',
		'Stop and Error': 'not run',
	});
	expect(execution.status).toBe('success');
	expect(Object.keys(execution.runData).sort()).toEqual([...PIPELINE].sort());

	firstCharges = added(before, await charges());
	expect(outputOf(execution, 'Read properties').length).toBeGreaterThan(0);
	expect(ofKind(firstCharges, 'property')).toEqual([]);
	expect(sum(ofKind(firstCharges, 'person'), 'quantity')).toBe(
		outputOf(execution, 'Get Owners').length,
	);
	expect(ofKind(firstCharges, 'phone').length).toBe(outputOf(execution, 'Purchase Phone').length);
	for (const kind of ['person', 'phone'])
		expect(sum(ofKind(firstCharges, kind), 'cents')).toBeGreaterThan(0);
	executions[1] = execution;
	process.stdout.write(
		`(1) Execute workflow: canvas ${JSON.stringify(shown)}; charged ${listed(firstCharges)}\n`,
	);
});

test('(2) Execute step on Purchase Phone runs Purchase Phone only: nothing before it runs again, its phones are "already purchased", nothing is charged', async () => {
	const { execution, charged } = await executeStepOnPurchasePhone();
	expect(execution.status).toBe('success');
	expect(ranIn(execution, executions[1])).toEqual(['Purchase Phone']);
	const phones = outputOf(execution, 'Purchase Phone');
	expect(phones.length).toBe(outputOf(executions[1], 'Purchase Phone').length);
	for (const phone of phones)
		expect(phone).toMatchObject({ purchased: false, alreadyPurchased: true });
	expect(charged).toEqual([]);
	// The canvas: every node up to Purchase Phone green; "Add to list", after it, shows no output any more
	// (n8n drops the run data of the nodes off the way to the chosen node: `cleanRunData`, last loop).
	const shown = await expectCanvas({
		Run: 'success',
		'Create static list': 'success',
		'Find properties': 'success',
		'Read properties': 'success',
		'Get Owners': 'success',
		'Purchase Phone': 'success',
		'Add to list': 'not run',
		'Send to CRM': 'not run',
	});
	executions[2] = execution;
	process.stdout.write(
		`(2) Execute step on Purchase Phone: ran ${JSON.stringify(ranIn(execution, executions[1]))}; canvas ${JSON.stringify(shown)}; charged ${listed(charged)}\n`,
	);
});

test('(3) Get Owners changed (Max Cost 3 → 4), Execute step on Purchase Phone: Get Owners runs again and buys its owners again; Read properties does not run', async () => {
	await setMaxCost('Get Owners', '4');
	// The canvas marks the changed node and keeps showing its old output, and that of the nodes after it.
	const changed = await expectCanvas({
		'Read properties': 'success',
		'Get Owners': 'changed',
		'Purchase Phone': 'success',
	});
	await canvasNode('Get Owners').locator('[data-test-id="canvas-node-status-warning"]').hover();
	await page
		.getByText('Node configuration changed. Output data may change when this node is run again')
		.filter({ visible: true })
		.first()
		.waitFor(SHOWN);
	await page.mouse.move(5, 450);

	const { execution, charged } = await executeStepOnPurchasePhone();
	expect(execution.status).toBe('success');
	expect(ranIn(execution, executions[2])).toEqual(['Get Owners', 'Purchase Phone']);
	// Bought again: the same owners, charged as in (1); no property and no phone.
	expect(charged.map((charge) => charge.kind).every((kind) => kind === 'person')).toBe(true);
	expect(sum(charged, 'quantity')).toBe(sum(ofKind(firstCharges, 'person'), 'quantity'));
	expect(sum(charged, 'cents')).toBe(sum(ofKind(firstCharges, 'person'), 'cents'));
	expect(sum(charged, 'cents')).toBeGreaterThan(0);
	const shown = await expectCanvas({
		'Read properties': 'success',
		'Get Owners': 'success',
		'Purchase Phone': 'success',
	});
	executions[3] = execution;
	process.stdout.write(
		`(3) Get Owners Max Cost 3 → 4, before the run: canvas ${JSON.stringify(changed)}; Execute step on Purchase Phone: ran ${JSON.stringify(ranIn(execution, executions[2]))}; canvas ${JSON.stringify(shown)}; charged ${listed(charged)}\n`,
	);
});

test('(3b) Read properties changed (Return All off), Execute step on Purchase Phone: Read properties runs again, and Get Owners, unchanged but after it, runs again and buys again', async () => {
	await openNode('Read properties');
	await panel().locator('[data-test-id="parameter-input-returnAll"] .el-switch').first().click();
	await panel().locator('[data-test-id="parameter-input-limit"]').first().waitFor(SHOWN);
	await closeNode();
	// Only Read properties is marked: Get Owners still shows its output as current.
	const changed = await expectCanvas({
		'Read properties': 'changed',
		'Get Owners': 'success',
		'Purchase Phone': 'success',
	});

	const { execution, charged } = await executeStepOnPurchasePhone();
	expect(execution.status).toBe('success');
	expect(ranIn(execution, executions[3])).toEqual([
		'Get Owners',
		'Purchase Phone',
		'Read properties',
	]);
	// Its default Limit (50) reads the same properties.
	expect(outputOf(execution, 'Read properties')).toEqual(
		outputOf(executions[1], 'Read properties'),
	);
	expect(sum(ofKind(charged, 'property'), 'quantity')).toBe(
		sum(ofKind(firstCharges, 'property'), 'quantity'),
	);
	expect(sum(ofKind(charged, 'person'), 'quantity')).toBe(
		sum(ofKind(firstCharges, 'person'), 'quantity'),
	);
	expect(ofKind(charged, 'phone')).toEqual([]);
	const shown = await expectCanvas({
		'Read properties': 'success',
		'Get Owners': 'success',
		'Purchase Phone': 'success',
	});
	executions['3b'] = execution;
	process.stdout.write(
		`(3b) Read properties Return All off, before the run: canvas ${JSON.stringify(changed)}; Execute step on Purchase Phone: ran ${JSON.stringify(ranIn(execution, executions[3]))}; canvas ${JSON.stringify(shown)}; charged ${listed(charged)}\n`,
	);
});

test('(4) Get Owners pinned, then changed (Max Cost 4 → 5), Execute step on Purchase Phone: Get Owners does not run, nothing is bought', async () => {
	// Pin Get Owners' output: the pin button of its output pane.
	await openNode('Get Owners');
	const owners = outputOf(executions['3b'], 'Get Owners');
	await panel().locator('[data-test-id="ndv-pin-data"]').first().click();
	await panel()
		.locator('[data-test-id="ndv-pinned-data-callout"]')
		.getByText('This data is pinned for test executions.')
		.first()
		.waitFor(SHOWN);
	await retype(panel().locator('[data-test-id="parameter-input-maxCost"] input').first(), '5');
	await closeNode();
	const beforeRun = await nodeState('Get Owners');

	const { execution, charged } = await executeStepOnPurchasePhone();
	expect(execution.status).toBe('success');
	expect(await pinnedIn(execution)).toEqual(['Get Owners']);
	// Get Owners did not run: its run data was cleared (it changed) and it was not run again; Purchase
	// Phone ran on the pinned items.
	expect(execution.runData['Get Owners']).toBeUndefined();
	expect(ranIn(execution, executions['3b'])).toEqual(['Purchase Phone']);
	expect(outputOf(execution, 'Purchase Phone').map((phone) => phone.PersonKey)).toEqual(
		owners.map((owner) => owner.PersonKey),
	);
	expect(charged).toEqual([]);

	const shown = await expectCanvas({
		'Read properties': 'success',
		'Get Owners': 'pinned',
		'Purchase Phone': 'success',
	});
	// The panel of the pinned node: its output is the pinned data.
	await openNode('Get Owners');
	await panel()
		.locator('[data-test-id="ndv-pinned-data-callout"]')
		.getByText('This data is pinned for test executions.')
		.first()
		.waitFor(SHOWN);
	await closeNode();
	// A click on the empty canvas: no node selected, so that no node's toolbar shows.
	await page.mouse.click(700, 700);
	await expectCanvas({ 'Get Owners': 'pinned' });
	await page.screenshot({ path: join(SCREENSHOTS, 'execute-step-pinned.png') });
	process.stdout.write(
		`(4) Get Owners pinned, Max Cost 4 → 5, before the run: Get Owners ${beforeRun}; Execute step on Purchase Phone: ran ${JSON.stringify(ranIn(execution, executions['3b']))}, pinned ${JSON.stringify(await pinnedIn(execution))}; canvas ${JSON.stringify(shown)}; charged ${listed(charged)}\n`,
	);
});
