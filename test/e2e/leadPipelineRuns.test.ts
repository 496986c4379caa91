/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Example 6, the lead pipeline, run after run in the real editor (n8n 2.41 with the packed package,
 * Debian chromium driven by playwright-core), with the account's free export credits used up so
 * that every record costs its list price:
 * (1) run three times with "Execute workflow", a new property matching its list between runs 1
 *     and 2: runs 2 and 3 charge nothing for what run 1 bought (the sandbox's charge log), create no
 *     new list, and the CRM step gets the same fields for what is new as run 1 did; n8n's own
 *     de-duplication store is what remembers the purchases (Skip Records Bought Before);
 * (2) with a Max Cost too small, the recommended pattern (error output → "Not bought" → Stop and
 *     Error) shows the refused run as an error in the executions list and on the canvas.
 */
import type { Browser, Page } from 'playwright-core';

import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { useUpFreeCredits } from '../support/freeCredits';
import { editor, SHOWN, startEditor, stopN8n } from '../support/realN8n';
import { added, call, sandboxCharges } from '../support/sandboxApi';
import { executionStartedBy, outputOf, type StoredExecution } from '../support/storedExecution';
import { example } from '../support/workflows';
import type { N8nClient, RunningN8n } from '../../scripts/n8n-host';

jest.setTimeout(900_000);

type WorkflowNode = { name: string; onError?: string; parameters: Record<string, unknown> };
type Workflow = { id: string; name: string; nodes: WorkflowNode[] };

const pipeline = example<Workflow>('06-lead-pipeline.json');
const REFUSED = 'PropRadarE2eRefuse';
const REFUSED_NAME = 'e2e: lead pipeline, Get Owners Max Cost 0.01';

/** Example 6 as it is, but Get Owners' Max Cost $0.01, too little for any owner. */
function refusingPipeline(): Workflow {
	const workflow = example<Workflow>('06-lead-pipeline.json');
	workflow.id = REFUSED;
	workflow.name = REFUSED_NAME;
	workflow.nodes.find((node) => node.name === 'Get Owners')!.parameters.maxCost = 0.01;
	return workflow;
}

const STATIC_LIST = 'Absentee owners with phones';
const DYNAMIC_LIST = 'Oregon absentee owners in foreclosure, 97211';

let sandbox: RunningSandbox;
let host: RunningN8n;
let client: N8nClient;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	await useUpFreeCredits(sandbox.url);
	({ host, client, browser, page } = await startEditor({
		sandboxUrl: sandbox.url,
		workflows: [pipeline, refusingPipeline()],
	}));
});

afterAll(async () => {
	await browser?.close();
	await stopN8n(host, sandbox);
});

const { openWorkflow, canvasFlags, canvasShowing } = editor(
	() => page,
	() => host.url,
	'lead-pipeline-runs-failed.png',
);

const executeWorkflow = (workflowId: string) =>
	executionStartedBy(client, workflowId, () =>
		page.locator('[data-test-id="execute-workflow-button"]').first().click(),
	);

const charges = () => sandboxCharges(sandbox.url);
const listsNamed = async (name: string) =>
	(
		(await call(sandbox.url, 'GET', '/v1/lists')).body as {
			results: Array<{ ListID: number; ListName: string }>;
		}
	).results.filter((list) => list.ListName === name);
const crmLog = async () =>
	((await call(sandbox.url, 'GET', '/_sandbox/crm')).body as { results: Array<{ body: unknown }> })
		.results;
const ran = (execution: StoredExecution, node: string) => execution.runData[node] !== undefined;
const hintsOf = (execution: StoredExecution, node: string) =>
	(
		(execution.runData[node]?.[0] as { hints?: Array<{ message: string }> } | undefined)?.hints ??
		[]
	).map((hint) => hint.message);
const fieldsOf = (items: Array<Record<string, unknown>>) =>
	[...new Set(items.flatMap((item) => Object.keys(item)))].sort();

async function nodeState(name: string): Promise<string> {
	const { errorClass, successClass, issuesIcon, checkIcon } = await canvasFlags(name);
	if (errorClass && issuesIcon && !successClass && !checkIcon) return 'error';
	if (successClass && checkIcon && !errorClass && !issuesIcon) return 'success';
	if (!errorClass && !issuesIcon && !successClass && !checkIcon) return 'not run';
	return JSON.stringify({ errorClass, successClass, issuesIcon, checkIcon });
}

test('(1) run three times: runs 2 and 3 charge nothing for what run 1 bought, create no new list, and the CRM step gets the same fields for what is new', async () => {
	await openWorkflow(pipeline.id, 'Get Owners');

	// Run 1: the list's properties, their owners and every owner's phone are bought.
	const before1 = await charges();
	const run1 = await executeWorkflow(pipeline.id);
	expect(run1.status).toBe('success');
	const properties1 = outputOf(run1, 'Read properties').map((item) => String(item.PropID));
	expect(properties1.length).toBeGreaterThan(0);
	const phones1 = outputOf(run1, 'Purchase Phone');
	expect(phones1.length).toBeGreaterThan(0);
	expect(phones1.every((item) => item.purchased === true)).toBe(true);
	const charged1 = added(before1, await charges());
	expect(charged1.filter((entry) => entry.kind === 'phone')).toHaveLength(phones1.length);
	expect(charged1.some((entry) => entry.kind === 'person')).toBe(true);
	const crm1 = (await crmLog()).map((entry) => entry.body as Record<string, unknown>);
	expect(crm1).toHaveLength(phones1.length);
	expect(crm1.every((body) => (body.phones as string[]).length > 0)).toBe(true);
	expect(await listsNamed(STATIC_LIST)).toHaveLength(1);
	expect(await listsNamed(DYNAMIC_LIST)).toHaveLength(1);
	const [dynamic] = await listsNamed(DYNAMIC_LIST);

	// A new property matches the list before run 2 (as one does between two daily runs).
	const match = (
		await call(sandbox.url, 'POST', '/_sandbox/simulate/new-match', {
			body: { ListID: dynamic.ListID },
		})
	).body as { PropID: string };
	expect(properties1).not.toContain(match.PropID);

	// Run 2: only the new property is bought: its owners and their phones.
	const before2 = await charges();
	const run2 = await executeWorkflow(pipeline.id);
	expect(run2.status).toBe('success');
	const properties2 = outputOf(run2, 'Read properties').map((item) => String(item.PropID));
	expect(properties2.sort()).toEqual([...properties1, match.PropID].sort());
	const owners2 = outputOf(run2, 'Get Owners');
	expect(owners2.length).toBeGreaterThan(0);
	expect(new Set(owners2.map((owner) => owner.PropID))).toEqual(new Set([match.PropID]));
	expect(hintsOf(run2, 'Get Owners').join(' ')).toContain(
		`${properties1.length} of the ${properties2.length} items left out, nothing sent or charged for them: bought in an earlier execution`,
	);
	const phones2 = outputOf(run2, 'Purchase Phone');
	expect(phones2.length).toBe(owners2.length);
	const charged2 = added(before2, await charges());
	// Nothing charged for a record bought in run 1: every charge names the new property or its people.
	const newPeople = new Set(owners2.map((owner) => String(owner.PersonKey)));
	for (const entry of charged2)
		expect(
			entry.what === `owners of ${match.PropID}` ||
				[...newPeople].some((key) => entry.what === `phone of ${key}`),
		).toBe(true);
	expect(charged2.filter((entry) => entry.kind === 'phone')).toHaveLength(phones2.length);
	// The CRM step gets the same fields as in run 1, for the new people only.
	expect(fieldsOf(phones2)).toEqual(fieldsOf(phones1));
	const crm2 = (await crmLog())
		.slice(crm1.length)
		.map((entry) => entry.body as Record<string, unknown>);
	expect(crm2).toHaveLength(phones2.length);
	expect(fieldsOf(crm2)).toEqual(fieldsOf(crm1));
	expect(crm2.every((body) => newPeople.has(String(body.personKey)))).toBe(true);
	expect(crm2.every((body) => (body.phones as string[]).length > 0)).toBe(true);

	// Run 3: nothing new, nothing sent for purchase, nothing charged.
	const before3 = await charges();
	const run3 = await executeWorkflow(pipeline.id);
	expect(run3.status).toBe('success');
	expect(outputOf(run3, 'Get Owners')).toEqual([]);
	expect(ran(run3, 'Purchase Phone')).toBe(false);
	expect(added(before3, await charges())).toEqual([]);
	expect(await crmLog()).toHaveLength(crm1.length + crm2.length);

	// No run made another list.
	expect(await listsNamed(STATIC_LIST)).toHaveLength(1);
	expect(await listsNamed(DYNAMIC_LIST)).toHaveLength(1);
	expect(outputOf(run3, 'Create static list')[0]).toMatchObject({ created: false });

	process.stdout.write(
		`(1) run 1: ${properties1.length} properties, ${phones1.length} phones, charged ${charged1.length} purchases; ` +
			`run 2: 1 new property ${match.PropID}, ${phones2.length} phones, charges ${JSON.stringify(charged2.map((entry) => entry.what))}; ` +
			`run 3: charged nothing\n`,
	);
});

test('(2) a Max Cost refusal in the recommended pattern (error output → Not bought → Stop and Error) shows as an error in the executions list and on the canvas, with nothing charged', async () => {
	await openWorkflow(REFUSED, 'Get Owners');
	const before = await charges();
	const execution = await executeWorkflow(REFUSED);
	expect(execution.status).toBe('error');
	expect(outputOf(execution, 'Get Owners')).toEqual([]);
	const refused = outputOf(execution, 'Get Owners', 1);
	expect(refused.length).toBeGreaterThan(0);
	expect(String(refused[0].error)).toMatch(/^Purchase refused: over Max Cost/);
	expect(execution.error?.message).toMatch(/not bought: Purchase refused: over Max Cost/);
	expect(added(before, await charges())).toEqual([]);

	await canvasShowing(nodeState, { 'Stop and Error': 'error', 'Purchase Phone': 'not run' });

	await page.goto(`${host.url}/home/executions`);
	const row = page
		.locator('[data-test-id="global-execution-list-item"]')
		.filter({ hasText: REFUSED_NAME })
		.first();
	await row.waitFor(SHOWN);
	const status = (await row.locator('[data-test-id="execution-status"]').innerText()).trim();
	expect(status).toMatch(/^Error\b/);
	process.stdout.write(`(2) executions list: "${status}"\n`);
});
