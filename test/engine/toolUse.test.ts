/* eslint-disable @n8n/community-nodes/node-connection-type-literal -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The PropRadar node run as an AI agent's tool, through n8n-core's engine against the sandbox: n8n
 * runs the node's tool variant (its type name ends in "Tool"), and an agent reads what the node
 * returns, not what it throws. So every failure is a result with `error`, `description` and
 * `charged`. And the credential's ceiling needs an execution that holds all the calls of one agent
 * run: a sub-workflow's purchases count against the execution that called it; where n8n runs the
 * node without an execution (its Agents module builds an ExecuteContext of its own, as below) or
 * runs each MCP tool call as an execution of its own, a purchase under a ceiling is refused.
 * The agents themselves, with a model, run in the e2e tier (test/e2e/agent.test.ts).
 */
import { ExecuteContext, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	createEmptyRunExecutionData,
	createRunExecutionData,
	Workflow,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWorkflowBase,
} from 'n8n-workflow';

import { ACCOUNTS } from '../../sandbox/accounts';
import { wallet } from '../../sandbox/charges';
import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import {
	additionalDataFor,
	nodeTypes,
	registerNodeType,
	runNode,
	TOKENS,
	type CredentialValues,
} from '../support/harness';
import {
	deferredEngineSandbox,
	listRef,
	propertyPurchase,
	sandboxCharges,
} from '../support/helpers';

const TOOL = 'n8n-nodes-propradar.propRadarTool';
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** A start node that gives one empty item, registered under the type of n8n's MCP Server Trigger: n8n names the trigger of every execution in its execution context. */
class StandInTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Stand-in trigger',
		name: 'standInTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts an execution with one item',
		defaults: { name: 'Trigger' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}

registerNodeType(TOOL, new PropRadar());
registerNodeType(MCP_TRIGGER, new StandInTrigger());

const { sb, start, close } = deferredEngineSandbox();
beforeAll(start);
afterAll(close);
beforeEach(async () => {
	sb.faults.length = 0;
	sb.requests.length = 0;
	await fetch(`${sb.sandbox.url}/_sandbox/reset`, { method: 'POST' });
});

/** Every record paid for, none from free export credits: what is spent is what a cap counts. */
const noCredits = () => {
	wallet(
		sb.sandbox.ctx,
		ACCOUNTS.find((account) => account.token === TOKENS.main)!,
	).credits = 0;
};
const charged = async () =>
	(await sandboxCharges(sb)).log.filter((entry) => entry.cents > 0).map((entry) => entry.what);
const credentials = (spendingCeiling?: number): CredentialValues => ({
	baseUrl: sb.url,
	accessToken: TOKENS.main,
	spendingCeiling,
});

describe('as a tool, every failure is a result that says what happened to the money', () => {
	test('a parameter refused before the item loop: a result, where the node itself throws', async () => {
		const parameters = { resource: 'property', operation: 'appraise' };
		const asNode = await runNode(parameters, { credentials: credentials() });
		expect(asNode.error?.message).toBe(
			'The operation "appraise" of resource "property" is not known',
		);
		const asTool = await runNode(parameters, { credentials: credentials(), nodeType: TOOL });
		expect(asTool.error).toBeUndefined();
		expect(asTool.json).toEqual([
			{
				error: 'The operation "appraise" of resource "property" is not known',
				charged: 'Nothing was charged in this call.',
			},
		]);
	});

	test('a purchase over Max Cost: the refusal with its amounts, nothing sent to buy', async () => {
		noCredits();
		const result = await runNode(propertyPurchase('P000601', 0.05), {
			credentials: credentials(),
			nodeType: TOOL,
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{
				error: 'Purchase refused: over Max Cost',
				description:
					'This purchase needs up to $0.10 (every record at full price), and Max Cost has $0.05 of $0.05 left ($0.00 spent, $0.00 held for purchases under way) for this run. Nothing was charged. Set Max Cost to at least $0.10, or buy fewer records.',
				charged: 'Nothing was charged in this call.',
			},
		]);
		expect(sb.requests.filter((request) => request.query.get('Purchase') === '1')).toEqual([]);
	});

	test('a call that bought, then failed at its next item: the records, and an error saying what the call was charged', async () => {
		noCredits();
		// Two items are read together (Property > Get over several items): the second's PropID does not exist.
		const result = await runNode(propertyPurchase('={{ $json.id }}', 5), {
			credentials: credentials(),
			nodeType: TOOL,
			items: [{ id: 'P000602' }, { id: 'P999999' }],
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			expect.objectContaining({
				PropID: 'P000602',
				_charge: expect.objectContaining({ totalCost: '0.10' }),
			}),
			expect.objectContaining({
				error: 'Property P999999 does not exist or belongs to another account',
				httpCode: '404',
				charged:
					"This call was charged $0.10 for the 1 record it bought, which is in this result (each record's _charge says what its purchase cost).",
			}),
		]);
		expect(await charged()).toEqual(['property search, 1 properties']);
	});

	test('a call whose items together do not fit Max Cost: refused whole, and the agent learns nothing was charged', async () => {
		noCredits();
		const result = await runNode(propertyPurchase('={{ $json.id }}', 0.15), {
			credentials: credentials(),
			nodeType: TOOL,
			items: [{ id: 'P000602' }, { id: 'P000603' }],
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(2);
		for (const item of result.json) {
			expect(item).toMatchObject({
				error: 'Purchase refused: over Max Cost',
				charged: 'Nothing was charged in this call.',
			});
			expect(String(item.description)).toContain('Set Max Cost to at least $0.20');
		}
		expect(await charged()).toEqual([]);
	});

	test('a Return All purchase that stops after its first page: the records, and an error saying what was bought and charged', async () => {
		noCredits();
		sb.faults.push({
			pathPrefix: '/v1/properties',
			query: { Purchase: '0', Start: '500' },
			count: 4,
			status: 500,
		});
		const result = await runNode(
			{
				resource: 'property',
				operation: 'search',
				criteriaMode: 'json',
				criteriaJson: '[{"name":"State","value":["OR"]}]',
				returnAll: true,
				fields: { include: ['PropID'] },
				chargeMode: 'purchase',
				maxCost: 5000,
			},
			{ credentials: credentials(), nodeType: TOOL },
		);
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(501);
		expect(result.json.slice(0, 500).every((record) => typeof record.PropID === 'string')).toBe(
			true,
		);
		const spent = (await sandboxCharges(sb)).log.reduce((sum, entry) => sum + entry.cents, 0);
		expect(result.json[500]).toEqual({
			error: 'Purchase stopped after 500 records',
			description: expect.stringMatching(
				/^Stopped after 500 records: the quote of the next page failed .* 500 records were bought; \d+ of the \d+ wanted were not bought\.$/,
			),
			charged: `This call was charged $${(spent / 100).toFixed(2)} for the 500 records it bought, which are in this result (each record's _charge says what its purchase cost).`,
		});
	});

	test('bought with free export credits, then a bad ID: "nothing was charged" says what paid', async () => {
		const result = await runNode(propertyPurchase('={{ $json.id }}'), {
			credentials: credentials(),
			nodeType: TOOL,
			items: [{ id: 'P000604' }, { id: 'P 605' }],
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				PropID: 'P000604',
				_charge: expect.objectContaining({ totalCost: '0.00' }),
			}),
			{
				error:
					'Property ID: "P 605" contains whitespace; a PropID is text such as P000123, without whitespace, control characters or / \\ ? # %, at most 100 characters',
				charged:
					'Nothing was charged in this call: free export credits paid for the 1 record it bought, which is in this result.',
			},
		]);
	});

	test('a purchase whose answer is lost: "may have been charged", with the amount, and it is charged once', async () => {
		noCredits();
		sb.faults.push({
			pathPrefix: '/v1/properties/P000606',
			query: { Purchase: '1' },
			count: 1,
			dropAfterForward: true,
		});
		const result = await runNode(propertyPurchase('P000606'), {
			credentials: credentials(),
			nodeType: TOOL,
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				error: 'The connection to PropRadar failed during a purchase: it may have been charged',
				charged:
					"This call may have been charged up to $0.10: up to $0.10 for a purchase whose answer was lost or failed, which may or may not have been charged. Check the account's charges in PropRadar before buying that again.",
			}),
		]);
		expect(await charged()).toEqual(['property P000606']);
	});

	test('a batched operation (Import) refused before anything is sent: a result too', async () => {
		const result = await runNode(
			{
				resource: 'importRecord',
				operation: 'import',
				listId: listRef(1),
				mapping: 'auto',
				chargeMode: 'purchase',
				maxCost: '={{ "ten" }}',
			},
			{ credentials: credentials(), nodeType: TOOL, items: [{ Address: '1 Main St' }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{
				error:
					'Max Cost: must be an amount in USD, 0 or more with at most two decimals (such as 2.50), got "ten"',
				description: 'Nothing was sent and nothing was charged.',
				charged: 'Nothing was charged in this call.',
			},
		]);
		expect(sb.requests).toEqual([]);
	});
});

/** The PropRadar tool run as n8n 2.41's Agents module runs a node tool (EphemeralNodeExecutor.executeNodeDirectly): an ExecuteContext of n8n-core's, with no execution. */
async function runWithoutExecution(
	parameters: IDataObject,
	spendingCeiling?: number,
): Promise<IDataObject[]> {
	const node: INode = {
		id: 'tool',
		name: 'PropRadar',
		type: TOOL,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { propRadarApi: { id: 'cred-1', name: 'PropRadar account' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = additionalDataFor(credentials(spendingCeiling), {
		id: 'agents',
		name: 'agents',
		nodes: [node],
		connections: {},
	} as unknown as IWorkflowBase);
	delete (additionalData as { executionId?: string }).executionId;
	const items = [{ json: {} }];
	const context = new ExecuteContext(
		workflow,
		workflow.getNode(node.name)!,
		additionalData,
		'internal',
		createEmptyRunExecutionData(),
		0,
		items,
		{ main: [items] },
		{ node, data: { main: [items] }, source: null },
		[],
	);
	const [output] = await new PropRadar().execute.call(context);
	return output.map((item) => item.json);
}

describe('where n8n runs the tool without an execution (its Agents module), a purchase under a ceiling is refused', () => {
	test('refused, saying why and that nothing was sent or charged; nothing is sent', async () => {
		const json = await runWithoutExecution(propertyPurchase('P000611'), 0.5);
		expect(json).toEqual([
			{
				error:
					"Purchase refused: no n8n execution holds this call, so the credential's spending ceiling cannot count it",
				description: expect.stringContaining(
					'Nothing was sent and nothing was charged. Preview Cost (Free) works here.',
				),
				charged: 'Nothing was charged in this call.',
			},
		]);
		expect(json[0].description).toContain('Spending Ceiling per Execution of $0.50');
		expect(sb.requests).toEqual([]);
	});

	test('the preview works there, and a credential with No Ceiling buys under Max Cost alone', async () => {
		expect(
			await runWithoutExecution(
				{ resource: 'property', operation: 'get', propId: 'P000612', chargeMode: 'preview' },
				0.5,
			),
		).toEqual([expect.objectContaining({ preview: true, maxCostNeeded: '0.10' })]);
		expect(await runWithoutExecution(propertyPurchase('P000612'))).toEqual([
			expect.objectContaining({ PropID: 'P000612', _charge: expect.anything() }),
		]);
	});
});

/** Runs `Trigger (triggerType) -> PropRadar (parameters)` as one execution through WorkflowExecute, as a sub-workflow of `parentExecutionId` when given. */
async function runExecution(
	parameters: IDataObject,
	spendingCeiling: number,
	{
		triggerType = 'test.fixedItems',
		parentExecutionId,
	}: { triggerType?: string; parentExecutionId?: string },
): Promise<{ json: IDataObject[]; error?: string }> {
	const nodes: INode[] = [
		{
			id: 'start',
			name: 'Start',
			type: triggerType,
			typeVersion: 1,
			position: [0, 0],
			parameters: triggerType === 'test.fixedItems' ? { items: '[{}]' } : {},
		},
		{
			id: 'buy',
			name: 'Buy',
			type: 'n8n-nodes-propradar.propRadar',
			typeVersion: 1,
			position: [200, 0],
			parameters: parameters as INode['parameters'],
			credentials: { propRadarApi: { id: 'cred-1', name: 'PropRadar account' } },
		},
	];
	const connections = { Start: { main: [[{ node: 'Buy', type: 'main' as const, index: 0 }]] } };
	const workflow = new Workflow({
		id: 'sub',
		name: 'sub',
		nodes,
		connections,
		active: false,
		nodeTypes,
		staticData: {},
	});
	const additionalData = additionalDataFor(credentials(spendingCeiling), {
		id: 'sub',
		name: 'sub',
		nodes,
		connections,
	} as unknown as IWorkflowBase);
	additionalData.hooks = new ExecutionLifecycleHooks('integrated', additionalData.executionId!, {
		id: 'sub',
		name: 'sub',
		nodes,
		connections,
	} as unknown as IWorkflowBase);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: {} }]] }, source: null }],
		},
		...(parentExecutionId
			? { parentExecution: { executionId: parentExecutionId, workflowId: 'parent' } }
			: {}),
	});
	const run = await new WorkflowExecute(
		additionalData,
		parentExecutionId ? 'integrated' : 'webhook',
		runExecutionData,
	).processRunExecutionData(workflow);
	const buyRun = run.data.resultData.runData.Buy?.at(-1);
	return {
		json: (buyRun?.data?.main?.[0] ?? []).map((item) => item.json),
		error: buyRun?.error?.message,
	};
}

describe("the ceiling over an agent's workflow tool: a sub-workflow's purchases count against the execution that called it", () => {
	test('three sub-executions of one parent under a $0.25 ceiling: two bought, the third refused', async () => {
		noCredits();
		const results = [];
		for (const propId of ['P000621', 'P000622', 'P000623'])
			results.push(
				await runExecution(propertyPurchase(propId), 0.25, {
					parentExecutionId: 'agent-execution-1',
				}),
			);
		expect(results.map((result) => result.error)).toEqual([
			undefined,
			undefined,
			"Purchase refused: over the credential's spending ceiling",
		]);
		// Another parent's sub-workflow has a ceiling of its own.
		expect(
			(
				await runExecution(propertyPurchase('P000624'), 0.25, {
					parentExecutionId: 'agent-execution-2',
				})
			).error,
		).toBeUndefined();
		expect(await charged()).toEqual(['property P000621', 'property P000622', 'property P000624']);
	});
});

describe('each MCP Server Trigger call is an execution of its own: a purchase under a ceiling is refused there', () => {
	test('refused in an execution the MCP Server Trigger started; bought in any other', async () => {
		noCredits();
		expect(
			(await runExecution(propertyPurchase('P000631'), 0.5, { triggerType: MCP_TRIGGER })).error,
		).toBe(
			"Purchase refused: no n8n execution holds this call, so the credential's spending ceiling cannot count it",
		);
		expect((await runExecution(propertyPurchase('P000632'), 0.5, {})).error).toBeUndefined();
		expect(await charged()).toEqual(['property P000632']);
	});
});
