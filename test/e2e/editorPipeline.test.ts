/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * A lead pipeline in the real editor (n8n with the packed package, Debian chromium driven by
 * playwright-core), clicked as a user does, with the account's free export credits used up so that
 * every record costs its list price (issue 38, "Done when" (a) to (c); (d) is
 * test/e2e/matchCount.test.ts):
 * (a) example 6 (a free read of a dynamic list's properties → Get Owners → Purchase Phone → Add to
 *     list and Send to CRM) with Get Owners' Max Cost $0.45 and its On Error left at "Stop
 *     Workflow": the run is refused whole at Get Owners, which shows the error on the canvas, in
 *     its panel and in the executions list; nothing after it runs; the sandbox charged nothing;
 * (b) the same workflow with Max Cost raised in the panel runs through, twice: the second run is
 *     green too and buys no phone again ("already purchased", with the phone owned). Skip Records
 *     Bought Before is off in this copy, so that the second run reaches Purchase Phone (with it on,
 *     test/e2e/leadPipelineRuns.test.ts);
 * (c) a preview of Get Owners over 6 items says, above its output, the Max Cost a purchase of them
 *     needs; that Max Cost, typed into the panel with Charge Mode "Purchase", buys them.
 *
 * Canvas states are read from the DOM n8n 2.41 renders (CanvasNodeDefault and
 * CanvasNodeStatusIcons): a node with execution errors has the `_error_…` class and the
 * `node-issues` icon, a node that ran well the `_success_…` class and the
 * `canvas-node-status-success` icon. What n8n stored is read through its REST API
 * (test/support/storedExecution.ts), the money from the sandbox's charge log.
 *
 * Screenshots go to .tools/screenshots/ (pipeline-stopped.png, pipeline-stopped-panel.png,
 * pipeline-second-run.png, preview-run-total.png); `npm run screenshots` copies them over the
 * README's images in docs/screenshots/.
 */
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import type { ChargeEntry } from '../../sandbox/charges';
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { useUpFreeCredits } from '../support/freeCredits';
import { editor, SCREENSHOTS, SHOWN, startEditor, stopN8n } from '../support/realN8n';
import { added, call, sandboxCharges, sum } from '../support/sandboxApi';
import { executionStartedBy, outputOf } from '../support/storedExecution';
import { example, manualTrigger, propRadarNode, rowItems, to } from '../support/workflows';
import type { N8nClient, RunningN8n } from '../../scripts/n8n-host';

jest.setTimeout(600_000);

type WorkflowNode = { name: string; onError?: string; parameters: Record<string, unknown> };
type Workflow = { id: string; name: string; nodes: WorkflowNode[] };

const PIPELINE = 'PropRadarE2ePipe1';
const PIPELINE_NAME = 'e2e: lead pipeline, Get Owners Max Cost 0.45, On Error Stop Workflow';

/** Example 6 (Run → Create static list → Find properties → Read properties → Get Owners → Purchase Phone → Add to list, Send to CRM) with Get Owners' Max Cost $0.45 and On Error left at its default, "Stop Workflow", and Skip Records Bought Before off. */
function stoppingPipeline(): Workflow {
	const workflow = example<Workflow>('06-lead-pipeline.json');
	workflow.id = PIPELINE;
	workflow.name = PIPELINE_NAME;
	const owners = workflow.nodes.find((node) => node.name === 'Get Owners')!;
	owners.parameters.maxCost = 0.45;
	delete owners.onError;
	for (const node of workflow.nodes) delete node.parameters.skipBoughtBefore;
	return workflow;
}

const PREVIEW = 'PropRadarE2ePrev6';
const SIX = ['P000106', 'P000110', 'P000112', 'P000120', 'P000130', 'P000140'];

/** Run → Make (Edit Fields, the six PropIDs) → Rows (Split Out: one item each) → Get Owners, Charge Mode "Preview Cost (Free)". */
function sixItemPreview() {
	return {
		id: PREVIEW,
		name: 'e2e: Get Owners preview over 6 items',
		nodes: [
			manualTrigger(),
			...rowItems(SIX.map((PropID) => ({ PropID }))),
			propRadarNode('owners', 'Get Owners', [660, 0], {
				resource: 'person',
				operation: 'getOwners',
				propId: '={{ $json.PropID }}',
				chargeMode: 'preview',
			}),
		],
		connections: { Run: to('Make'), Make: to('Rows'), Rows: to('Get Owners') },
		settings: { executionOrder: 'v1' },
	};
}

let sandbox: RunningSandbox;
let host: RunningN8n;
let client: N8nClient;
let browser: Browser;
let page: Page;

const charges = () => sandboxCharges(sandbox.url);
const centsOf = (amount: unknown) => Math.round(Number(amount) * 100);
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	await useUpFreeCredits(sandbox.url);
	({ host, client, browser, page } = await startEditor({
		sandboxUrl: sandbox.url,
		workflows: [stoppingPipeline(), sixItemPreview()],
	}));
});

afterAll(async () => {
	await browser?.close();
	await stopN8n(host, sandbox);
});

const { panel, openWorkflow, openNode, closeNode, retype, canvasFlags, canvasShowing } = editor(
	() => page,
	() => host.url,
	'editor-pipeline-failed.png',
);

async function screenshot(file: string): Promise<void> {
	await page.screenshot({ path: join(SCREENSHOTS, file) });
}

/**
 * What the canvas shows of a node's last run: "error" (the error class and the issues icon),
 * "success" (the success class and the check icon), "not run" (neither), or, for anything else,
 * the flags read.
 */
async function nodeState(name: string): Promise<string> {
	const { errorClass, successClass, issuesIcon, checkIcon } = await canvasFlags(name);
	if (errorClass && issuesIcon && !successClass && !checkIcon) return 'error';
	if (successClass && checkIcon && !errorClass && !issuesIcon) return 'success';
	if (!errorClass && !issuesIcon && !successClass && !checkIcon) return 'not run';
	return JSON.stringify({ errorClass, successClass, issuesIcon, checkIcon });
}

const expectCanvas = (expected: Record<string, string>) => canvasShowing(nodeState, expected);

/** Clicks the canvas's "Execute workflow" button and resolves to the execution n8n stored once it is over. */
const executeWorkflow = (workflowId: string) =>
	executionStartedBy(client, workflowId, () =>
		page.locator('[data-test-id="execute-workflow-button"]').first().click(),
	);

const PIPELINE_NODES = [
	'Run',
	'Create static list',
	'Find properties',
	'Read properties',
	'Get Owners',
	'Purchase Phone',
	'Add to list',
	'Send to CRM',
];
/** The Max Cost the refusal of (a) named, in cents: what the owners of the list's properties cost. */
let ownersNeedCents = 0;

test('(a) Get Owners with Max Cost $0.45 and On Error "Stop Workflow": refused whole, red on the canvas, in its panel and in the executions list; nothing after it runs; nothing was charged', async () => {
	const before = await charges();
	await openWorkflow(PIPELINE, 'Get Owners');
	const execution = await executeWorkflow(PIPELINE);

	const shown = await expectCanvas({
		Run: 'success',
		'Create static list': 'success',
		'Find properties': 'success',
		'Read properties': 'success',
		'Get Owners': 'error',
		'Purchase Phone': 'not run',
		'Add to list': 'not run',
		'Send to CRM': 'not run',
		'Not bought': 'not run',
		'Stop and Error': 'not run',
	});
	await screenshot('pipeline-stopped.png');

	// What n8n stored: an error, at Get Owners, with nothing after it.
	expect(execution.status).toBe('error');
	expect(Object.keys(execution.runData).sort()).toEqual(
		['Create static list', 'Find properties', 'Get Owners', 'Read properties', 'Run'].sort(),
	);
	const ownersRun = execution.runData['Get Owners'][0];
	expect(ownersRun.error?.message).toMatch(/^Purchase refused: over Max Cost( \[item 0\])?$/);
	expect(ownersRun.data).toBeUndefined();

	// Its panel: the message and what to do.
	await openNode('Get Owners');
	const message = (
		await panel().locator('[data-test-id="node-error-message"]').first().innerText()
	).trim();
	const descriptionField = panel().locator('[data-test-id="node-error-description"]').first();
	await descriptionField.waitFor(SHOWN);
	const description = (await descriptionField.innerText()).trim();
	await panel().locator('[data-test-id="node-error-message"]').first().scrollIntoViewIfNeeded();
	await screenshot('pipeline-stopped-panel.png');
	// n8n adds the index of the item an error names.
	expect(message).toMatch(/^Purchase refused: over Max Cost( \[item 0\])?$/);
	const needs = /This run needs up to \$(\d+\.\d\d) for its (\d+) items/.exec(description);
	const setTo = /Set Max Cost to at least \$(\d+\.\d\d)/.exec(description);
	expect(needs).not.toBeNull();
	expect(setTo).not.toBeNull();
	expect(description).toContain('Nothing was bought');
	await closeNode();

	// The sandbox's own quotes of the owners of the list's three properties: the run total the message names.
	const searched = outputOf(execution, 'Read properties');
	expect(searched).toHaveLength(3);
	let quoted = 0;
	for (const property of searched)
		quoted += centsOf(
			(
				await call(
					sandbox.url,
					'GET',
					`/v1/properties/${String(property.PropID)}/persons?Purchase=0`,
				)
			).body.totalCost,
		);
	expect(Number(needs![2])).toBe(3);
	expect(centsOf(needs![1])).toBe(quoted);
	expect(centsOf(setTo![1])).toBe(quoted);
	expect(quoted).toBeGreaterThan(45);
	ownersNeedCents = quoted;

	// The money: the list reads are free, and Get Owners was refused before buying: nothing charged.
	const after = await charges();
	const newCharges = added(before, after);
	expect(newCharges).toEqual([]);
	expect(after.balanceCents).toBe(before.balanceCents);

	// The executions list: Error.
	await page.goto(`${host.url}/home/executions`);
	const row = page
		.locator('[data-test-id="global-execution-list-item"]')
		.filter({ hasText: PIPELINE_NAME })
		.first();
	await row.waitFor(SHOWN);
	const status = (await row.locator('[data-test-id="execution-status"]').innerText()).trim();
	expect(status).toMatch(/^Error\b/);

	process.stdout.write(
		`(a) canvas ${JSON.stringify(shown)}\n(a) panel: "${message}" / "${description}"\n(a) executions list: "${status}"; charged nothing (${newCharges.length} charges)\n`,
	);
});

test('(b) with Max Cost raised in the panel the pipeline runs through, and runs through again without buying a phone twice', async () => {
	expect(ownersNeedCents).toBeGreaterThan(0);
	await openWorkflow(PIPELINE, 'Get Owners');
	await openNode('Get Owners');
	const maxCost = panel().locator('[data-test-id="parameter-input-maxCost"] input').first();
	await retype(maxCost, '3');
	expect(Number(await maxCost.inputValue())).toBe(3);
	await closeNode();
	await page.keyboard.press('ControlOrMeta+s');

	// Every node green; "Not bought" (the error outputs' node) gets nothing, so does not run.
	const green = {
		...Object.fromEntries(PIPELINE_NODES.map((name) => [name, 'success'])),
		'Not bought': 'not run',
		'Stop and Error': 'not run',
	};
	const beforeFirst = await charges();
	const first = await executeWorkflow(PIPELINE);
	const firstShown = await expectCanvas(green);
	expect(first.status).toBe('success');
	const afterFirst = await charges();
	const firstCharges = added(beforeFirst, afterFirst);
	const firstPhones = outputOf(first, 'Purchase Phone');
	expect(outputOf(first, 'Purchase Phone', 1)).toEqual([]);
	expect(firstPhones.length).toBeGreaterThan(0);
	// Get Owners bought what the refusal of (a) said it needs.
	expect(
		sum(
			firstCharges.filter((charge) => charge.kind === 'person'),
			'cents',
		),
	).toBe(ownersNeedCents);
	expect(firstCharges.filter((charge) => charge.kind === 'phone').length).toBeGreaterThan(0);
	for (const phone of firstPhones) expect(phone.PropID).toMatch(/^P\d{6}$/);

	const phonesOwned = afterFirst.log.filter((charge) => charge.kind === 'phone');
	const second = await executeWorkflow(PIPELINE);
	const secondShown = await expectCanvas(green);
	expect(second.status).toBe('success');
	const afterSecond = await charges();
	const secondCharges = added(afterFirst, afterSecond);
	expect(afterSecond.log.filter((charge) => charge.kind === 'phone')).toEqual(phonesOwned);
	const secondPhones = outputOf(second, 'Purchase Phone');
	expect(secondPhones.map((phone) => phone.PersonKey).sort()).toEqual(
		firstPhones.map((phone) => phone.PersonKey).sort(),
	);
	for (const phone of secondPhones) {
		expect(phone).toMatchObject({ alreadyPurchased: true });
		expect(phone.PropID).toMatch(/^P\d{6}$/);
	}
	// The same fields as the first run for the step after it: each person's phone, the one owned.
	const phoneOf = (phones: Array<Record<string, unknown>>) =>
		Object.fromEntries(phones.map((phone) => [String(phone.PersonKey), phone.Phone]));
	expect(phoneOf(secondPhones)).toEqual(phoneOf(firstPhones));
	expect(outputOf(second, 'Add to list').length).toBeGreaterThan(0);

	// The screen of the second run: Purchase Phone's output in its panel says "already purchased".
	await openNode('Purchase Phone');
	await panel()
		.getByText('alreadyPurchased')
		.first()
		.waitFor({ state: 'attached', ...SHOWN });
	await closeNode();
	// A click on the empty canvas: no node selected, so that no node's toolbar shows.
	await page.mouse.click(700, 700);
	await screenshot('pipeline-second-run.png');

	const list = (log: ChargeEntry[]) =>
		log.map((charge) => `${charge.kind} ×${charge.quantity} ${dollars(charge.cents)}`).join(', ');
	process.stdout.write(
		`(b) first full run: canvas ${JSON.stringify(firstShown)}; charged ${list(firstCharges)}\n(b) second run: canvas ${JSON.stringify(secondShown)}; charged ${list(secondCharges)}; Purchase Phone: ${JSON.stringify(secondPhones.map((phone) => ({ PersonKey: phone.PersonKey, PropID: phone.PropID, alreadyPurchased: phone.alreadyPurchased })))}\n`,
	);
});

test('(c) a preview over 6 items shows above its output the Max Cost a purchase needs; typed in with Charge Mode "Purchase", it buys them', async () => {
	// The sandbox's own quotes of the six properties' owners.
	let records = 0;
	let quoted = 0;
	for (const propId of SIX) {
		const quote = (await call(sandbox.url, 'GET', `/v1/properties/${propId}/persons?Purchase=0`))
			.body as { totalCost: string; resultCount: number };
		records += quote.resultCount;
		quoted += centsOf(quote.totalCost);
	}

	await openWorkflow(PREVIEW, 'Get Owners');
	const previewBefore = await charges();
	const preview = await executeWorkflow(PREVIEW);
	await expectCanvas({ Make: 'success', Rows: 'success', 'Get Owners': 'success' });
	expect(preview.status).toBe('success');
	expect(outputOf(preview, 'Get Owners')).toHaveLength(6);
	expect((await charges()).log).toEqual(previewBefore.log);

	await openNode('Get Owners');
	const hint = panel()
		.locator('[data-test-id="node-hint"]')
		.filter({ hasText: 'Run total of this preview' })
		.first();
	await hint.waitFor(SHOWN);
	const hintText = (await hint.innerText()).trim();
	await hint.scrollIntoViewIfNeeded();
	await screenshot('preview-run-total.png');
	const total =
		/Run total of this preview: 6 quotes, (\d+) charged records at \$0\.15 each\. A purchase of the same items needs Max Cost of at least \$(\d+\.\d\d)\./.exec(
			hintText,
		);
	expect(total).not.toBeNull();
	expect(Number(total![1])).toBe(records);
	expect(centsOf(total![2])).toBe(quoted);
	const typed = total![2];

	// As the user: Charge Mode "Purchase", the Max Cost the hint gave, then "Execute step".
	await panel().locator('[data-test-id="parameter-input-chargeMode"]').click();
	await page.getByRole('option', { name: /^Purchase/ }).click();
	const maxCost = panel().locator('[data-test-id="parameter-input-maxCost"] input').first();
	await maxCost.waitFor(SHOWN);
	await retype(maxCost, typed);
	expect(centsOf(await maxCost.inputValue())).toBe(centsOf(typed));
	const before = await charges();
	const purchase = await executionStartedBy(client, PREVIEW, () =>
		panel().locator('[data-test-id="node-execute-button"]').first().click(),
	);
	expect(purchase.status).toBe('success');
	const owners = outputOf(purchase, 'Get Owners');
	expect(owners).toHaveLength(records);
	expect(
		owners.every(
			(owner) => typeof owner.PersonKey === 'string' && SIX.includes(String(owner.PropID)),
		),
	).toBe(true);
	expect(await panel().locator('[data-test-id="node-error-message"]').count()).toBe(0);
	await closeNode();
	const shown = await expectCanvas({ 'Get Owners': 'success' });

	const newCharges = added(before, await charges());
	expect(newCharges.every((charge) => charge.kind === 'person')).toBe(true);
	expect(sum(newCharges, 'quantity')).toBe(records);
	expect(sum(newCharges, 'cents')).toBe(quoted);
	process.stdout.write(
		`(c) hint: "${hintText}"\n(c) Purchase with Max Cost ${typed}: canvas ${JSON.stringify(shown)}, ${owners.length} owner records, charged ${dollars(sum(newCharges, 'cents'))} for ${sum(newCharges, 'quantity')} records\n`,
	);
});
