/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The PropRadar node as an AI agent's tool in a real n8n (scripts/n8n-install.sh), with both
 * generations of n8n's AI Agent node: v2 (LangChain's AgentExecutor calls the tool inside the
 * agent's run, n8n-core's `makeHandleToolInvocation`) and v3 (the agent asks the engine to run the
 * tool node, n8n-core's `handleEngineRequest`). The model is a scripted OpenAI-compatible server on
 * 127.0.0.1 (test/support/modelServer.ts) that records what n8n sends it: the tools it offers and
 * every tool result. Money is read from the sandbox's charge log. The other ways n8n 2.41 runs a
 * node as a tool are here too: an agent's workflow tool (the sub-workflow's purchases count against
 * the agent's execution), n8n's Agents module and the MCP Server Trigger (no execution holds their
 * calls: a purchase under a ceiling is refused). One n8n start for the file.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { withoutFreeCredits } from '../support/freeCredits';
import { call, sandboxCharges, TOKENS } from '../support/sandboxApi';
import {
	startModelServer,
	toolName,
	type ModelServer,
	type Script,
	type ScriptedCall,
	type ToolResult,
} from '../support/modelServer';
import { propRadarNode } from '../support/workflows';
import { SIMPLIFIED_FIELDS } from '../../nodes/PropRadar/shared/vocabulary';
import { until } from '../support/until';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, RunningN8n } from '../../scripts/n8n-host';

jest.setTimeout(300_000);

/** The two generations of n8n 2.41's AI Agent node, by the version a workflow gives it. */
const AGENTS = [
	{ name: 'AI Agent v2', typeVersion: 2.2, path: 'propradar-agent-v2' },
	{ name: 'AI Agent v3', typeVersion: 3.1, path: 'propradar-agent-v3' },
] as const;

/** Where the test writes what the model saw, for people to read (not tracked). */
const MODEL_VIEW = join(__dirname, '..', '..', '.tools', 'agent-e2e');

const CEILING = 0.5;
const PROPERTY_SIMPLIFIED: readonly string[] = SIMPLIFIED_FIELDS.property;
const propId =
	"={{ $fromAI('propId', 'The PropID of the property, text such as P000123', 'string') }}";
/** What the editor writes when the user lets the model define the Property ID field: a key named after the field, no description. */
const editorPropId =
	"={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('Property_ID', ``, 'string') }}";
/** Property > Get of the property the model names, every field of it (about 200), bought under a Max Cost of $1; Output left at its default. */
const buyProperty = {
	resource: 'property',
	operation: 'get',
	propId,
	fields: { fieldsets: ['All'] },
	chargeMode: 'purchase',
	maxCost: 1,
};

/** The PropRadar tools every agent has: node name, parameters and node settings. */
const TOOLS: Array<{
	name: string;
	parameters: Record<string, unknown>;
	settings?: Record<string, unknown>;
}> = [
	{
		name: 'preview_property',
		parameters: {
			resource: 'property',
			operation: 'get',
			propId: editorPropId,
			chargeMode: 'preview',
		},
	},
	{ name: 'buy_property', parameters: buyProperty },
	{ name: 'buy_property_capped', parameters: { ...buyProperty, maxCost: 0.05 } },
	{
		name: 'buy_property_retried',
		parameters: buyProperty,
		settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
	},
	// Items at Once must be 1 to 50: refused before the item loop.
	{
		name: 'get_list_misconfigured',
		parameters: {
			resource: 'list',
			operation: 'get',
			listId: { __rl: true, mode: 'id', value: '1' },
			itemConcurrency: 0,
		},
	},
	{
		name: 'get_lists',
		parameters: { resource: 'list', operation: 'getMany', returnAll: false, limit: 2 },
	},
];

let sandbox: RunningSandbox;
let model: ModelServer;
let host: RunningN8n;
let client: N8nClient;
let credentials: { openAi: { id: string; name: string }; propRadar: { id: string; name: string } };

const sandboxCall = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
	(await call(sandbox.url, method, path, { body })).body as T;
const charges = async () => (await sandboxCharges(sandbox.url)).log;

/** A sub-workflow that buys the property it is given (its node continues on error, so that a refusal is its answer). */
function buyingSubWorkflow(propRadar: { id: string; name: string }) {
	return {
		name: 'e2e agent: buy one property',
		nodes: [
			{
				id: 'sub-start',
				name: 'Start',
				type: 'n8n-nodes-base.executeWorkflowTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				parameters: { workflowInputs: { values: [{ name: 'propId' }] } },
			},
			{
				...propRadarNode(
					'sub-buy',
					'Buy',
					[220, 0],
					{
						resource: 'property',
						operation: 'get',
						propId: '={{ $json.propId }}',
						chargeMode: 'purchase',
						maxCost: 1,
					},
					propRadar,
				),
				onError: 'continueRegularOutput',
			},
		],
		connections: { Start: { main: [[{ node: 'Buy', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** n8n's "Call n8n Workflow Tool" running `subWorkflowId` with the property the model names. */
function workflowTool(agent: (typeof AGENTS)[number], subWorkflowId: string) {
	return {
		id: `${agent.path}-workflow-tool`,
		name: 'buy_via_workflow',
		type: '@n8n/n8n-nodes-langchain.toolWorkflow',
		typeVersion: 2.2,
		position: [200, 500],
		parameters: {
			description: 'Buy one property, by its PropID, through a workflow',
			workflowId: { __rl: true, mode: 'id', value: subWorkflowId },
			workflowInputs: {
				mappingMode: 'defineBelow',
				value: {
					propId:
						"={{ $fromAI('propId', 'The PropID of the property, text such as P000123', 'string') }}",
				},
				matchingColumns: [],
				schema: [
					{
						id: 'propId',
						displayName: 'propId',
						required: false,
						defaultMatch: false,
						display: true,
						canBeUsedToMatch: true,
						type: 'string',
					},
				],
				attemptToConvertTypes: false,
				convertFieldsToString: false,
			},
		},
	};
}

/** A webhook that answers with the agent's last output, the agent with the scripted model, every PropRadar tool and the workflow tool. */
function agentWorkflow(
	agent: (typeof AGENTS)[number],
	openAi: { id: string; name: string },
	propRadar: { id: string; name: string },
	subWorkflowId: string,
) {
	const tools = TOOLS.map((tool, index) => ({
		id: `${agent.path}-${tool.name}`,
		name: tool.name,
		type: 'n8n-nodes-propradar.propRadarTool',
		typeVersion: 1,
		position: [200 + index * 120, 300],
		parameters: tool.parameters,
		credentials: { propRadarApi: propRadar },
		...tool.settings,
	}));
	return {
		name: `e2e agent: ${agent.name}`,
		nodes: [
			{
				id: `${agent.path}-hook`,
				name: 'Hook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: `${agent.path}-hook`,
				parameters: { httpMethod: 'POST', path: agent.path, responseMode: 'lastNode', options: {} },
			},
			{
				id: `${agent.path}-agent`,
				name: 'Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: agent.typeVersion,
				position: [300, 0],
				parameters: {
					promptType: 'define',
					text: '={{ $json.body.prompt }}',
					options: { maxIterations: 30 },
				},
			},
			{
				id: `${agent.path}-model`,
				name: 'Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				position: [200, 300],
				parameters: { model: { __rl: true, mode: 'id', value: 'scripted' }, options: {} },
				credentials: { openAiApi: openAi },
			},
			...tools,
			workflowTool(agent, subWorkflowId),
		],
		connections: {
			Hook: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			Model: { ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]] },
			...Object.fromEntries(
				[...tools.map((tool) => tool.name), 'buy_via_workflow'].map((name) => [
					name,
					{ ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
				]),
			),
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Runs one agent with a script, and returns the tool results the model received (kept for people in .tools/agent-e2e). */
async function converse(
	agent: (typeof AGENTS)[number],
	id: string,
	turns: ScriptedCall[][],
): Promise<ToolResult[]> {
	const script: Script = { id: `${agent.path}:${id}`, turns, final: 'All done.' };
	const response = await whenRegistered(`${host.url}/webhook/${agent.path}`, {
		prompt: `SCRIPT ${JSON.stringify(script)}`,
	});
	const answer = await response.text();
	if (!response.ok) throw new Error(`the agent's workflow answered ${response.status}: ${answer}`);
	keepModelView(script.id, answer);
	return model.toolResults(script.id);
}

/** Writes what the model saw in a conversation to .tools/agent-e2e, for people to read. */
function keepModelView(id: string, answer: string): void {
	const results = model.toolResults(id);
	mkdirSync(MODEL_VIEW, { recursive: true });
	const tools = model.toolsOffered(id).map((tool) => ({
		name: tool.function.name,
		description: tool.function.description,
		parameters: tool.function.parameters,
	}));
	writeFileSync(
		join(MODEL_VIEW, `${id.replace(/[^\w-]+/g, '_')}.json`),
		JSON.stringify({ answer, results, tools }, null, 2),
	);
}

/**
 * POSTs `body` as JSON to an n8n webhook, again while n8n answers 404: n8n registers an activated
 * workflow's webhooks a moment after the activation returns (nothing runs on a 404).
 */
async function whenRegistered(
	url: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<Response> {
	return until(
		`${url} to be registered`,
		async () => {
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: JSON.stringify(body),
			});
			return response.status === 404 ? undefined : response;
		},
		30_000,
		300,
	);
}

/** A tool result as JSON: n8n sends the model the JSON of the items the tool returned. */
const items = (result: ToolResult) => JSON.parse(result.content) as Array<Record<string, unknown>>;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	// Every record is paid for, none from free export credits: $0.10 a property against the ceiling.
	withoutFreeCredits(sandbox);
	await sandboxCall('POST', '/v1/lists', { ListName: 'Agent leads', ListType: 'static' });
	model = await startModelServer();
	host = await n8n.start(await n8n.prepare({ sandboxUrl: sandbox.url }));
	client = await n8n.login(host);
	const openAi = (await client.rest('POST', '/credentials', {
		name: 'Scripted model',
		type: 'openAiApi',
		data: { apiKey: 'sk-scripted', url: model.url },
	})) as { id: string; name: string };
	const propRadar = (await client.rest('POST', '/credentials', {
		name: 'PropRadar with a ceiling for agents',
		type: 'propRadarApi',
		data: {
			accessToken: TOKENS.main,
			baseUrl: sandbox.url,
			spendingCeilingMode: 'ceiling',
			spendingCeiling: CEILING,
		},
	})) as { id: string; name: string };
	credentials = {
		openAi: { id: openAi.id, name: openAi.name },
		propRadar: { id: propRadar.id, name: propRadar.name },
	};
	// A sub-workflow runs its published version in production executions.
	const subWorkflow = (await client.rest(
		'POST',
		'/workflows',
		buyingSubWorkflow(credentials.propRadar),
	)) as { id: string };
	await n8n.activate(client, subWorkflow.id);
	for (const agent of AGENTS) {
		const workflow = (await client.rest(
			'POST',
			'/workflows',
			agentWorkflow(agent, credentials.openAi, credentials.propRadar, subWorkflow.id),
		)) as { id: string };
		await n8n.activate(client, workflow.id);
	}
});

afterAll(async () => {
	await host?.stop();
	await model?.close();
	await sandbox?.close();
	if (host) rmSync(host.userFolder, { recursive: true, force: true });
});

beforeEach(async () => {
	await sandboxCall('DELETE', '/_sandbox/faults');
});

describe.each(AGENTS)('$name', (agent) => {
	// Each agent buys properties of its own.
	const offset = agent.typeVersion < 3 ? 0 : 50;
	const prop = (n: number) => `P000${String(200 + offset + n).padStart(3, '0')}`;

	test('tool descriptions say what charges, at what price, that the preview is free and gives maxCostNeeded, and what bounds the spending', async () => {
		await converse(agent, 'describe', []);
		const offered = new Map(
			model
				.toolsOffered(`${agent.path}:describe`)
				.map((tool) => [tool.function.name, tool.function]),
		);
		expect([...offered.keys()].sort()).toEqual(
			[...TOOLS.map((tool) => toolName(tool.name)), 'buy_via_workflow'].sort(),
		);
		const buy = offered.get('buy_property')!;
		expect(buy.description).toContain('This tool BUYS');
		expect(buy.description).toContain('$0.10 per property');
		expect(buy.description).toContain('Spending Ceiling per Execution');
		expect(buy.description).toContain('Preview Cost (Free)');
		expect(buy.description).toContain('maxCostNeeded');
		expect(buy.description).toContain('P000123');
		const preview = offered.get('preview_property')!;
		expect(preview.description).toMatch(
			/^Preview what it costs to get a property in PropRadar\. Free: nothing is bought or charged/,
		);
		expect(preview.description).toContain('maxCostNeeded');
		// The key the editor named after the field, and the format the description gives it.
		expect(preview.parameters).toMatchObject({
			properties: { Property_ID: { type: 'string' } },
			required: ['Property_ID'],
		});
		expect(preview.description).toContain(
			'IDs: Property ID (Property_ID) is a PropID, text such as P000123.',
		);
		expect(offered.get('get_lists')!.description).toBe(
			'Get many lists in PropRadar. Free: this call charges nothing.',
		);
		// The $fromAI parameter reaches the model with the name and description the workflow gave it.
		expect(JSON.stringify(buy.parameters)).toContain(
			'The PropID of the property, text such as P000123',
		);
	});

	test('free calls: the preview gives the quote and maxCostNeeded, a free read its records, and nothing is charged', async () => {
		const before = (await charges()).length;
		const results = await converse(agent, 'free', [
			[{ tool: 'preview_property', args: { Property_ID: prop(0) } }],
			[{ tool: 'get_lists', args: {} }],
		]);
		expect(results.map((result) => result.tool)).toEqual(['preview_property', 'get_lists']);
		expect(items(results[0])).toEqual([
			expect.objectContaining({
				preview: true,
				PropID: prop(0),
				totalCost: '0.10',
				maxCostNeeded: '0.10',
			}),
		]);
		expect(items(results[1]).length).toBeGreaterThan(0);
		expect((await charges()).slice(before)).toEqual([]);
	});

	test(`ten purchases in one agent run under a $${CEILING.toFixed(2)} ceiling: five bought, five refused, each refusal saying nothing was charged`, async () => {
		const before = (await charges()).length;
		const calls = Array.from({ length: 10 }, (_, n) => [
			{ tool: 'buy_property', args: { propId: prop(n + 1) } },
		]);
		const results = await converse(agent, 'ten', calls);
		expect(results).toHaveLength(10);
		const bought = (await charges()).slice(before).filter((entry) => entry.cents > 0);
		expect(bought.map((entry) => entry.what)).toEqual(
			Array.from({ length: 5 }, (_, n) => `property ${prop(n + 1)}`),
		);
		expect(bought.reduce((sum, entry) => sum + entry.cents, 0)).toBeLessThanOrEqual(CEILING * 100);
		// Output is Simplified unless the tool says otherwise: the model gets at most 10 of the
		// record's fields, its PropID, and what the purchase cost.
		for (const [n, result] of results.slice(0, 5).entries()) {
			expect(items(result)).toEqual([
				expect.objectContaining({
					PropID: prop(n + 1),
					_charge: expect.objectContaining({ totalCost: '0.10' }),
				}),
			]);
			const fields = Object.keys(items(result)[0]).filter((field) => field !== '_charge');
			expect(fields.length).toBeLessThanOrEqual(10);
			expect(fields.filter((field) => !PROPERTY_SIMPLIFIED.includes(field))).toEqual([]);
		}
		for (const result of results.slice(5)) {
			expect(items(result)).toEqual([
				{
					error: "Purchase refused: over the credential's spending ceiling",
					description: expect.stringMatching(
						/^This purchase needs up to \$0\.10 \(every record at full price\), and the PropRadar credential's Spending Ceiling per Execution has \$0\.00 of \$0\.50 left \(\$0\.50 spent, \$0\.00 held for purchases under way\) in this execution\. Nothing was charged\./,
					),
					charged: 'Nothing was charged in this call.',
				},
			]);
		}
	});

	test("ten purchases through a workflow tool: the sub-workflows draw on the agent's ceiling, five bought, five refused", async () => {
		const before = (await charges()).length;
		const results = await converse(
			agent,
			'workflow',
			Array.from({ length: 10 }, (_, n) => [
				{ tool: 'buy_via_workflow', args: { propId: prop(n + 21) } },
			]),
		);
		expect(results).toHaveLength(10);
		const bought = (await charges()).slice(before).filter((entry) => entry.cents > 0);
		expect(bought.map((entry) => entry.what)).toEqual(
			Array.from({ length: 5 }, (_, n) => `property ${prop(n + 21)}`),
		);
		for (const result of results.slice(5)) {
			expect(JSON.parse(result.content)).toEqual([
				expect.objectContaining({
					error: "Purchase refused: over the credential's spending ceiling",
					description: expect.stringContaining('Nothing was charged.'),
				}),
			]);
		}
	});

	test('every other refusal reaches the model with what happened to the money and what would succeed', async () => {
		// The purchase of this one is charged, and its answer lost.
		await sandboxCall('POST', '/_sandbox/faults', {
			path: `/v1/properties/${prop(13)}`,
			query: { Purchase: '1' },
			when: 'after',
			drop: true,
			count: 1,
		});
		const before = (await charges()).length;
		const results = await converse(agent, 'refusals', [
			[{ tool: 'buy_property_capped', args: { propId: prop(11) } }],
			[{ tool: 'buy_property_retried', args: { propId: prop(12) } }],
			[{ tool: 'buy_property', args: { propId: prop(13) } }],
			[{ tool: 'buy_property', args: { propId: 'P/14' } }],
			[{ tool: 'get_list_misconfigured', args: {} }],
		]);
		const [capped, retried, lost, badId, misconfigured] = results.map((result) => items(result));
		expect(capped).toEqual([
			{
				error: 'Purchase refused: over Max Cost',
				description: expect.stringMatching(
					/Max Cost has \$0\.05 of \$0\.05 left .* Nothing was charged\. Set Max Cost to at least \$0\.10, or buy fewer records\./,
				),
				charged: 'Nothing was charged in this call.',
			},
		]);
		expect(retried).toEqual([
			{
				error: 'Purchase refused: "Retry On Fail" is on for this node',
				description: expect.stringContaining('Nothing was sent and nothing was charged.'),
				charged: 'Nothing was charged in this call.',
			},
		]);
		expect(lost).toEqual([
			expect.objectContaining({
				error: expect.stringContaining('may have been charged'),
				charged:
					"This call may have been charged up to $0.10: up to $0.10 for a purchase whose answer was lost or failed, which may or may not have been charged. Check the account's charges in PropRadar before buying that again.",
			}),
		]);
		expect(badId).toEqual([
			{
				error: expect.stringMatching(
					/^Property ID: "P\/14" contains one of .*; a PropID is text such as P000123/,
				),
				charged: 'Nothing was charged in this call.',
			},
		]);
		expect(misconfigured).toEqual([
			expect.objectContaining({
				error: expect.stringMatching(/^Items at Once/),
				charged: 'Nothing was charged in this call.',
			}),
		]);
		// Only the purchase whose answer was lost was charged, once, whatever Retry On Fail did.
		expect(
			(await charges())
				.slice(before)
				.filter((entry) => entry.cents > 0)
				.map((entry) => entry.what),
		).toEqual([`property ${prop(13)}`]);
	});
});

/** n8n's Agents module: the owner's project, an agent with the scripted model and a PropRadar node tool of each kind. */
async function agentsModuleAgent(): Promise<{ projectId: string; agentId: string }> {
	const { id: projectId } = (await client.rest('GET', '/projects/personal')) as { id: string };
	const agent = (await client.rest('POST', `/projects/${projectId}/agents/v2`, {
		name: 'PropRadar buyer',
	})) as { id: string; name: string };
	const { configHash } = (await client.rest(
		'GET',
		`/projects/${projectId}/agents/v2/${agent.id}/config`,
	)) as { configHash: string };
	const nodeTool = (name: string, description: string, parameters: Record<string, unknown>) => ({
		type: 'node',
		name,
		description,
		node: {
			nodeType: 'n8n-nodes-propradar.propRadar',
			nodeTypeVersion: 1,
			nodeParameters: parameters,
			credentials: { propRadarApi: credentials.propRadar },
		},
	});
	const config = {
		name: agent.name,
		model: 'openai/scripted',
		credential: credentials.openAi.id,
		instructions: 'Follow the script.',
		tools: [
			nodeTool('preview_property', 'Preview the cost of a property', {
				resource: 'property',
				operation: 'get',
				propId,
				chargeMode: 'preview',
			}),
			nodeTool('buy_property', 'Buy a property', {
				resource: 'property',
				operation: 'get',
				propId,
				chargeMode: 'purchase',
				maxCost: 1,
			}),
		],
	};
	await client.rest('PUT', `/projects/${projectId}/agents/v2/${agent.id}/config`, {
		config,
		baseConfigHash: configHash,
	});
	return { projectId, agentId: agent.id };
}

test("n8n's Agents module runs node tools with no execution: ten purchases under the ceiling are refused, saying why, and nothing is charged; the preview works", async () => {
	const { projectId, agentId } = await agentsModuleAgent();
	const script: Script = {
		id: 'agents-module',
		turns: [
			[{ tool: 'preview_property', args: { propId: 'P000401' } }],
			...Array.from({ length: 10 }, (_, n) => [
				{ tool: 'buy_property', args: { propId: `P00041${n}` } },
			]),
		],
		final: 'All done.',
	};
	const before = (await charges()).length;
	const response = await fetch(`${host.url}/rest/projects/${projectId}/agents/v2/${agentId}/chat`, {
		method: 'POST',
		headers: {
			cookie: client.cookie,
			'content-type': 'application/json',
			'browser-id': 'propradar-e2e',
		},
		body: JSON.stringify({ message: `SCRIPT ${JSON.stringify(script)}` }),
	});
	const stream = await response.text();
	expect(stream).toContain('"type":"done"');
	keepModelView(script.id, stream);
	const results = model.toolResults(script.id);
	expect(results).toHaveLength(11);
	// The module hands the model its own wrapper of the node's items.
	const json = (result: ToolResult) =>
		(
			JSON.parse(result.content) as {
				status: string;
				data: Array<{ json: Record<string, unknown> }>;
			}
		).data.map((item) => item.json);
	expect(json(results[0])).toEqual([
		expect.objectContaining({ preview: true, maxCostNeeded: '0.10' }),
	]);
	for (const result of results.slice(1)) {
		expect(json(result)).toEqual([
			{
				error:
					"Purchase refused: no n8n execution holds this call, so the credential's spending ceiling cannot count it",
				description: expect.stringContaining('Spending Ceiling per Execution of $0.50'),
				charged: 'Nothing was charged in this call.',
			},
		]);
	}
	expect((await charges()).slice(before)).toEqual([]);
});

test('the MCP Server Trigger runs each tool call outside an execution: the client sees the descriptions, the preview, and a purchase refused with nothing charged', async () => {
	const path = 'propradar-e2e-mcp';
	const workflow = (await client.rest('POST', '/workflows', {
		name: 'e2e agent: MCP server',
		nodes: [
			{
				id: 'mcp',
				name: 'MCP',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: path,
				parameters: { path, authentication: 'none' },
			},
			...TOOLS.filter((tool) => ['preview_property', 'buy_property'].includes(tool.name)).map(
				(tool, index) => ({
					id: `mcp-${tool.name}`,
					name: tool.name,
					type: 'n8n-nodes-propradar.propRadarTool',
					typeVersion: 1,
					position: [index * 200, 200],
					parameters: tool.parameters,
					credentials: { propRadarApi: credentials.propRadar },
				}),
			),
		],
		connections: Object.fromEntries(
			['preview_property', 'buy_property'].map((name) => [
				name,
				{ ai_tool: [[{ node: 'MCP', type: 'ai_tool', index: 0 }]] },
			]),
		),
		settings: { executionOrder: 'v1' },
	})) as { id: string };
	await n8n.activate(client, workflow.id);
	const url = `${host.url}/mcp/${path}`;
	const accept = { accept: 'application/json, text/event-stream' };
	// Streamable HTTP: each answer is one server-sent event holding the JSON-RPC response.
	const rpc = async (body: Record<string, unknown>, session: string) => {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...accept, 'mcp-session-id': session },
			body: JSON.stringify({ jsonrpc: '2.0', ...body }),
		});
		const text = await response.text();
		return (text ? JSON.parse(text.slice(text.indexOf('data: ') + 6).trim()) : {}) as {
			result?: Record<string, unknown>;
		};
	};
	const initialized = await whenRegistered(
		url,
		{
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: {
				protocolVersion: '2025-03-26',
				capabilities: {},
				clientInfo: { name: 'e2e', version: '1' },
			},
		},
		accept,
	);
	const session = initialized.headers.get('mcp-session-id')!;
	await initialized.text();
	await rpc({ method: 'notifications/initialized' }, session);
	const { tools } = (await rpc({ id: 2, method: 'tools/list' }, session)).result as {
		tools: Array<{ name: string; description: string }>;
	};
	expect(tools.find((tool) => tool.name === 'buy_property')?.description).toContain(
		'This tool BUYS',
	);
	const before = (await charges()).length;
	const callTool = async (name: string, args: Record<string, unknown>) => {
		const { content } = (
			await rpc({ id: 3, method: 'tools/call', params: { name, arguments: args } }, session)
		).result as { content: Array<{ text: string }> };
		return JSON.parse(content[0].text) as Array<Record<string, unknown>>;
	};
	expect(await callTool('preview_property', { Property_ID: 'P000501' })).toEqual([
		expect.objectContaining({ preview: true, maxCostNeeded: '0.10' }),
	]);
	const refused = await callTool('buy_property', { propId: 'P000502' });
	mkdirSync(MODEL_VIEW, { recursive: true });
	writeFileSync(join(MODEL_VIEW, 'mcp.json'), JSON.stringify({ tools, refused }, null, 2));
	expect(refused).toEqual([
		{
			error:
				"Purchase refused: no n8n execution holds this call, so the credential's spending ceiling cannot count it",
			description: expect.stringContaining('Nothing was sent and nothing was charged.'),
			charged: 'Nothing was charged in this call.',
		},
	]);
	expect((await charges()).slice(before)).toEqual([]);
});
