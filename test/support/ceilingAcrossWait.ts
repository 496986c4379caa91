/**
 * The credential's ceiling across a Wait node and an n8n restart, in a real n8n: a webhook starts
 * an execution that buys three properties, posts its resume address to the sandbox's CRM stand-in
 * and waits; n8n restarts, the address is called, and the execution goes on to buy three more in a
 * process that has not seen it. Every record is paid for ($0.10 a property) under a $0.50 ceiling,
 * so what the execution spent before it waited must count after: the three after it need $0.30
 * where $0.20 is left, and the run is refused whole (three bought, not six). Each three are one
 * purchase: Property > Get over several items reads them through the search's PropID criterion.
 */
import type { RunningSandbox } from '../../sandbox/types';
import * as n8n from '../../scripts/n8n-host';
import type { N8nHost, RunningN8n } from '../../scripts/n8n-host';
import { until } from './until';
import { withoutFreeCredits } from './freeCredits';
import { call, sandboxCharges, TOKENS } from './sandboxApi';
import { propRadarNode, to } from './workflows';

/** Property > Get of `propIds` (made by an Edit Fields node and split out), several items bought in one request of the search. */
function buyEach(
	name: string,
	propIds: string[],
	credential: { id: string; name: string },
	x: number,
) {
	return [
		{
			id: `${name}-make`,
			name: `${name} make`,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [x, 0],
			parameters: {
				mode: 'raw',
				jsonOutput: JSON.stringify({ rows: propIds.map((id) => ({ id })) }),
				options: {},
			},
		},
		{
			id: `${name}-rows`,
			name: `${name} rows`,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [x + 200, 0],
			parameters: { fieldToSplitOut: 'rows', options: {} },
		},
		propRadarNode(
			`${name}-buy`,
			`${name} buy`,
			[x + 400, 0],
			{
				resource: 'property',
				operation: 'get',
				propId: '={{ $json.id }}',
				chargeMode: 'purchase',
				maxCost: 5,
				itemConcurrency: 1,
			},
			credential,
		),
	];
}

function waitingWorkflow(
	credential: { id: string; name: string },
	path: string,
	sandboxUrl: string,
) {
	const chain = (from: string, next: string) => ({ [from]: to(next) });
	return {
		name: 'e2e money: a ceiling across a wait and a restart',
		nodes: [
			{
				id: 'hook',
				name: 'Hook',
				type: 'n8n-nodes-base.webhook',
				webhookId: '7a2e3d4c-5b6f-4071-8b9c-0d1e2f3a4b5c',
				typeVersion: 2,
				position: [0, 0],
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			},
			...buyEach('before', ['P000851', 'P000852', 'P000853'], credential, 200),
			{
				id: 'tell',
				name: 'Tell',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [800, 0],
				executeOnce: true,
				parameters: {
					method: 'POST',
					url: `${sandboxUrl}/_sandbox/crm`,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: `={{ JSON.stringify({ ${JSON.stringify(path)}: $execution.resumeUrl }) }}`,
					options: {},
				},
			},
			{
				id: 'wait',
				name: 'Wait',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				position: [1000, 0],
				parameters: { resume: 'webhook', options: {} },
			},
			...buyEach('after', ['P000854', 'P000855', 'P000856'], credential, 1200),
		],
		connections: {
			...chain('Hook', 'before make'),
			...chain('before make', 'before rows'),
			...chain('before rows', 'before buy'),
			...chain('before buy', 'Tell'),
			...chain('Tell', 'Wait'),
			...chain('Wait', 'after make'),
			...chain('after make', 'after rows'),
			...chain('after rows', 'after buy'),
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** Runs the scenario; gives what was bought (the charge log's entries that cost money) and the n8n running after the restart. */
export async function ceilingAcrossWaitAndRestart(
	sandbox: RunningSandbox,
	prepared: N8nHost,
	running: RunningN8n,
): Promise<{ bought: string[]; host: RunningN8n }> {
	const sandboxCall = async <T>(method: string, path: string): Promise<T> =>
		(await call(sandbox.url, method, path)).body as T;
	const charges = async () => (await sandboxCharges(sandbox.url)).log;
	withoutFreeCredits(sandbox);
	let host = running;
	let client = await n8n.login(host);
	const credential = (await client.rest('POST', '/credentials', {
		name: 'PropRadar with a ceiling',
		type: 'propRadarApi',
		data: {
			accessToken: TOKENS.main,
			baseUrl: sandbox.url,
			spendingCeilingMode: 'ceiling',
			spendingCeiling: 0.5,
		},
	})) as { id: string; name: string };
	const path = 'propradar-e2e-wait';
	const workflow = (await client.rest(
		'POST',
		'/workflows',
		waitingWorkflow({ id: credential.id, name: credential.name }, path, sandbox.url),
	)) as { id: string };
	await n8n.activate(client, workflow.id);
	const before = (await charges()).length;
	try {
		await until(
			'the webhook to be served',
			async () =>
				(await fetch(`${host.url}/webhook/${path}`, { method: 'POST' })).status === 200
					? true
					: undefined,
			30_000,
			300,
		);
		const resumeUrl = await until(
			'the resume address',
			async () => {
				const posts = (
					await sandboxCall<{ results: Array<{ body: Record<string, string> }> }>(
						'GET',
						'/_sandbox/crm',
					)
				).results;
				return posts.find((post) => post.body[path])?.body[path];
			},
			60_000,
			300,
		);
		const filter = encodeURIComponent(JSON.stringify({ workflowId: workflow.id }));
		const latest = async () =>
			(
				(await client.rest('GET', `/executions?filter=${filter}&limit=1`)) as {
					results: Array<{ id: string; status: string }>;
				}
			).results[0];
		await until(
			'the execution to wait',
			async () => ((await latest())?.status === 'waiting' ? true : undefined),
			60_000,
			300,
		);
		// n8n restarts while the execution waits: it goes on in a process that has not seen it.
		await host.stop();
		host = await n8n.start(prepared);
		client = await n8n.login(host);
		if ((await fetch(resumeUrl)).status >= 400) throw new Error('n8n refused the resume address');
		await until(
			'the execution to end',
			async () => {
				const execution = await latest();
				return execution && !['waiting', 'running', 'new'].includes(execution.status)
					? execution
					: undefined;
			},
			60_000,
			300,
		);
		return {
			bought: (await charges())
				.slice(before)
				.filter((entry) => entry.cents > 0)
				.map((entry) => entry.what),
			host,
		};
	} finally {
		await n8n.deactivate(client, workflow.id);
	}
}
