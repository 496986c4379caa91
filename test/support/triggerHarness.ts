/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The trigger's part of the engine tier: a PropRadar Trigger workflow whose webhook methods
 * (`checkExists`, `create`, `delete`) run through n8n-core's `HookContext` as n8n runs them when a
 * workflow is activated, deactivated or listens for a test event, and a local HTTP receiver that
 * plays n8n's webhook server: it hands each delivery to the node's `webhook()` through n8n-core's
 * `WebhookContext` and records what happened (the answer, and the items of the execution the
 * node started, if any).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, WebhookContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type IWebhookData,
	type IWebhookResponseData,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { PropRadarTrigger } from '../../nodes/PropRadar/PropRadarTrigger.node';
import {
	registrationSlot,
	type Registration,
} from '../../nodes/PropRadar/trigger/registration/settle';
import {
	additionalDataFor,
	nodeTypes,
	registerNodeType,
	TOKENS,
	type CredentialValues,
	type EngineSandbox,
} from './harness';
import { api, control, deferredEngineSandbox, listRef } from './helpers';

export { createMonitoredList } from './helpers';

export const TRIGGER_TYPE = 'n8n-nodes-propradar.propRadarTrigger';
const triggerType = new PropRadarTrigger();
registerNodeType(TRIGGER_TYPE, triggerType);

/** One delivery as the receiver handled it. */
export interface Delivery {
	/** The workflow whose trigger got it (undefined: no trigger listens at that path). */
	workflowId?: string;
	test: boolean;
	/** null: no answer, the connection was dropped (`loseNextAnswers`). */
	status: number | null;
	answer: unknown;
	/** Items of the execution the trigger started; undefined when it started none. */
	items?: IDataObject[];
}

interface Listener {
	trigger: TriggerWorkflow;
	test: boolean;
	/** The node type instance that answers, when not the workflow's own (another n8n webhook process). */
	nodeType?: PropRadarTrigger;
}

/** Plays n8n's webhook server for trigger workflows: `POST /webhook/...` and `/webhook-test/...`. */
export class WebhookReceiver {
	readonly deliveries: Delivery[] = [];
	private readonly listeners = new Map<string, Listener>();
	private server?: Server;
	private lostAnswers = 0;
	private failedStarts = 0;
	private lateFailedStarts = 0;
	/** Answers to write once the next delivery has been handled (`failNextStartsLate`). */
	private afterNextDelivery: Array<() => void> = [];
	url = '';

	/**
	 * The next `count` deliveries that start an execution get no answer: their connection is
	 * dropped once the execution has started, as when the answer is lost on the way (a proxy's or
	 * the service's timeout). n8n still ends its answer (200) on the closed connection. The service
	 * then delivers again.
	 */
	loseNextAnswers(count: number): void {
		this.lostAnswers = count;
	}

	/**
	 * The next `count` deliveries that would start an execution are answered 500 instead, as n8n
	 * answers when it cannot create the execution after the trigger returned its items
	 * (WorkflowRunner.run failed, as when its database refused the write).
	 * Nothing was started, and the service delivers again.
	 */
	failNextStarts(count: number): void {
		this.failedStarts = count;
	}

	/**
	 * The next `count` deliveries that would start an execution are not started, and n8n is slow
	 * to say so, as while its database is busy: the service gives up first (the connection is
	 * dropped) and delivers again, and n8n answers 500 on the closed connection only once that
	 * redelivery has been answered.
	 */
	failNextStartsLate(count: number): void {
		this.lateFailedStarts = count;
	}

	/** What happens to a delivery whose trigger returned items: started and answered, answer lost, not started, or not started and said so late. */
	takeStartOutcome(): 'started' | 'answer lost' | 'not started' | 'not started, said late' {
		if (this.failedStarts > 0) {
			this.failedStarts--;
			return 'not started';
		}
		if (this.lateFailedStarts > 0) {
			this.lateFailedStarts--;
			return 'not started, said late';
		}
		if (this.lostAnswers > 0) {
			this.lostAnswers--;
			return 'answer lost';
		}
		return 'started';
	}

	async start(): Promise<void> {
		this.server = createServer((request, response) => void this.handle(request, response));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}

	listen(path: string, listener: Listener): void {
		this.listeners.set(path, listener);
	}

	stopListening(path: string): void {
		this.listeners.delete(path);
	}

	/** Deliveries the trigger of `workflowId` handled, in order. */
	deliveriesOf(workflowId: string): Delivery[] {
		return this.deliveries.filter((delivery) => delivery.workflowId === workflowId);
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const raw = Buffer.concat(chunks);
		const path = new URL(request.url ?? '/', 'http://receiver').pathname;
		const listener = this.listeners.get(path);
		if (!listener || request.method !== 'POST') {
			this.deliveries.push({
				test: path.startsWith('/webhook-test/'),
				status: 404,
				answer: undefined,
			});
			response
				.writeHead(404, { 'content-type': 'application/json' })
				.end('{"message":"not registered"}');
			return;
		}
		const waiting = this.afterNextDelivery.splice(0);
		const delivery = await listener.trigger.receive(
			request,
			raw,
			response,
			listener.test,
			listener.nodeType,
		);
		this.deliveries.push(delivery);
		for (const answer of waiting) answer();
	}

	/** Runs `answer` once the next delivery has been handled. */
	answerAfterNextDelivery(answer: () => void): void {
		this.afterNextDelivery.push(answer);
	}
}

/** The parsed body as n8n's body parser leaves it: JSON when it parses, else the text. */
function parseBody(raw: Buffer, contentType: string | undefined): unknown {
	const text = raw.toString('utf8');
	if (text === '') return {};
	if (!/json/i.test(contentType ?? '')) return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** The parts of Express' request and response the webhook context and the trigger use. */
function expressLike(request: IncomingMessage, raw: Buffer, response: ServerResponse) {
	const req = {
		method: request.method,
		url: request.url,
		headers: request.headers,
		body: parseBody(raw, request.headers['content-type']),
		rawBody: raw,
		params: {},
		query: {},
	};
	let answer: unknown;
	const res = {
		statusCode: 200,
		get headersSent() {
			return response.headersSent;
		},
		status(code: number) {
			res.statusCode = code;
			return res;
		},
		json(value: unknown) {
			answer = value;
			response
				.writeHead(res.statusCode, { 'content-type': 'application/json' })
				.end(JSON.stringify(value));
			return res;
		},
		send(value: unknown) {
			return res.json(value);
		},
		end() {
			response.writeHead(res.statusCode).end();
			return res;
		},
		setHeader(name: string, value: string) {
			response.setHeader(name, value);
			return res;
		},
		once(event: string, listener: () => void) {
			response.once(event, listener);
			return res;
		},
	};
	return { req, res, answer: () => answer };
}

export interface TriggerWorkflowOptions {
	receiver: WebhookReceiver;
	/**
	 * The node type instance to run, by default the one of this module. A copy loaded in
	 * `jest.isolateModules` has its own module state, as the node has in another n8n process.
	 */
	nodeType?: PropRadarTrigger;
	credentials: CredentialValues;
	parameters: IDataObject;
	workflowId?: string;
	/** The node and static data of a workflow n8n loads again (`restarted`). */
	saved?: { node: INode; staticData: IDataObject };
}

/**
 * One workflow holding a PropRadar Trigger. Its static data lives on as n8n keeps it (in
 * `workflow.staticData`) between activation, deliveries and deactivation.
 */
export class TriggerWorkflow {
	readonly id: string;
	readonly node: INode;
	readonly workflow: Workflow;
	private readonly workflowData: IWorkflowBase;
	private readonly receiver: WebhookReceiver;
	private credentials: CredentialValues;
	private readonly nodeType: PropRadarTrigger;

	constructor({
		receiver,
		credentials,
		parameters,
		workflowId,
		nodeType,
		saved,
	}: TriggerWorkflowOptions) {
		this.receiver = receiver;
		this.nodeType = nodeType ?? triggerType;
		this.credentials = credentials;
		this.id = workflowId ?? `wf-${randomUUID().slice(0, 8)}`;
		this.node = saved?.node ?? {
			id: randomUUID(),
			name: 'PropRadar Trigger',
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: parameters as INode['parameters'],
			credentials: { propRadarApi: { id: 'cred-1', name: 'PropRadar account' } },
		};
		this.workflowData = {
			id: this.id,
			name: `trigger ${this.id}`,
			active: false,
			isArchived: false,
			nodes: [this.node],
			connections: {},
			settings: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		} as unknown as IWorkflowBase;
		this.workflow = new Workflow({
			id: this.id,
			name: this.workflowData.name,
			nodes: [this.node],
			connections: {},
			active: false,
			nodeTypes,
			staticData: saved?.staticData ?? {},
		});
	}

	/**
	 * The same workflow as n8n has it after a restart: a new Workflow object whose static data is a
	 * copy of what was saved, as n8n reads it back from its database.
	 */
	restarted(): TriggerWorkflow {
		return new TriggerWorkflow({
			receiver: this.receiver,
			credentials: this.credentials,
			parameters: this.node.parameters,
			workflowId: this.id,
			saved: {
				node: this.node,
				staticData: JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject,
			},
		});
	}

	/** Changes the workflow's credential as its owner edits it in n8n (a new token after a rotation); later calls use it. */
	useCredentials(values: Partial<CredentialValues>): void {
		this.credentials = { ...this.credentials, ...values };
	}

	/** The node's static data (`getWorkflowStaticData('node')`). */
	get staticData(): IDataObject {
		return (
			((this.workflow.staticData as IDataObject)[`node:${this.node.name}`] as
				IDataObject | undefined) ?? {}
		);
	}

	/** What the trigger remembers about its production (or test) registration; empty when none. */
	registration(test = false): Partial<Registration> {
		const registrations = (this.staticData.registrations ?? {}) as Record<string, Registration>;
		return registrations[registrationSlot(this.url(test), this.node.webhookId)] ?? {};
	}

	private additionalData(
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): IWorkflowExecuteAdditionalData {
		return {
			...additionalDataFor(this.credentials, this.workflowData),
			webhookBaseUrl: `${this.receiver.url}/webhook`,
			webhookTestBaseUrl: `${this.receiver.url}/webhook-test`,
			...extra,
		};
	}

	private webhookData(test: boolean): IWebhookData {
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: `${this.node.webhookId}/webhook`,
			webhookDescription: triggerType.description.webhooks![0],
			workflowId: this.id,
			workflowExecuteAdditionalData: this.additionalData(),
			webhookId: this.node.webhookId,
			isTest: test,
		};
	}

	/** Runs one webhook method through n8n-core's HookContext, as n8n does. */
	async hook(method: 'checkExists' | 'create' | 'delete', test = false): Promise<boolean> {
		const context = new HookContext(
			this.workflow,
			this.node,
			this.additionalData(),
			test ? 'manual' : 'trigger',
			test ? 'manual' : 'activate',
			this.webhookData(test),
		);
		// n8n runs these with an expression isolate held (workflow-trigger-activator.js); within
		// `activate`, the one it holds.
		return await this.workflow.expression.withIsolate(
			async () => await this.nodeType.webhookMethods.default[method].call(context),
		);
	}

	/** The URL path n8n serves this trigger at. */
	path(test = false): string {
		return `/${test ? 'webhook-test' : 'webhook'}/${this.node.webhookId}/webhook`;
	}

	/** The URL PropRadar is given. */
	url(test = false): string {
		return `${this.receiver.url}${this.path(test)}`;
	}

	/**
	 * Activation as n8n 2.41 does it (packages/cli/src/workflows/triggers/webhook-trigger-registrar.ts,
	 * `register`): `checkExists`, then `create` when it answers false; when either fails, `delete`
	 * runs (its own failure only logged) and the error stands. Then the URL is served.
	 */
	async activate(test = false): Promise<void> {
		// One isolate for the whole activation, as n8n holds one.
		await this.workflow.expression.withIsolate(async () => {
			try {
				if (!(await this.hook('checkExists', test))) await this.hook('create', test);
			} catch (error) {
				await this.hook('delete', test).catch(() => undefined);
				throw error;
			}
		});
		this.receiver.listen(this.path(test), { trigger: this, test });
	}

	/** Deactivation (or the end of "Listen for test event"): stop serving, then `delete`. */
	async deactivate(test = false): Promise<void> {
		this.receiver.stopListening(this.path(test));
		await this.hook('delete', test);
	}

	/** One delivery through the node's `webhook()` in n8n-core's WebhookContext. */
	async receive(
		request: IncomingMessage,
		raw: Buffer,
		response: ServerResponse,
		test: boolean,
		nodeType: PropRadarTrigger = this.nodeType,
	): Promise<Delivery> {
		const { req, res, answer } = expressLike(request, raw, response);
		const additionalData = this.additionalData({
			httpRequest: req,
			httpResponse: res,
		} as unknown as Partial<IWorkflowExecuteAdditionalData>);
		const context = new WebhookContext(
			this.workflow,
			this.node,
			additionalData,
			test ? 'manual' : 'webhook',
			this.webhookData(test),
			[],
			null,
		);
		let result: IWebhookResponseData;
		try {
			// n8n's webhook phase holds an isolate for any start node but its own Webhook node (live-webhooks.js, webhookPhaseNeedsIsolate).
			result = await this.workflow.expression.withIsolate(
				async () => await nodeType.webhook.call(context),
			);
		} catch (error) {
			res.status(500).json({ message: (error as Error).message });
			return { workflowId: this.id, test, status: 500, answer: answer() };
		}
		const items = result.workflowData?.[0]?.map((item) => item.json);
		const outcome = items === undefined ? 'started' : this.receiver.takeStartOutcome();
		if (outcome === 'not started') {
			res.status(500).json({ code: 0, message: 'There was a problem executing the workflow' });
			return { workflowId: this.id, test, status: 500, answer: answer() };
		}
		if (outcome === 'answer lost') {
			response.socket?.destroy();
			res.status(200).json(result.webhookResponse ?? { message: 'Workflow was started' });
			return { workflowId: this.id, test, status: null, answer: undefined, items };
		}
		if (outcome === 'not started, said late') {
			response.socket?.destroy();
			this.receiver.answerAfterNextDelivery(() =>
				res.status(500).json({ code: 0, message: 'There was a problem executing the workflow' }),
			);
			return { workflowId: this.id, test, status: null, answer: undefined };
		}
		if (!result.noWebhookResponse)
			res.status(200).json(result.webhookResponse ?? { message: 'Workflow was started' });
		return { workflowId: this.id, test, status: res.statusCode, answer: answer(), items };
	}
}

/** The list's automation as the sandbox holds it. */
export async function automationOf(
	sb: EngineSandbox,
	listId: number,
	token: string = TOKENS.main,
): Promise<IDataObject> {
	const response = await api<{ results: IDataObject[] }>(
		sb,
		'GET',
		`/v1/lists/${listId}/automations`,
		undefined,
		token,
	);
	if (response.status !== 200)
		throw new Error(`GET automation of list ${listId}: ${response.status}`);
	return response.body.results[0];
}

/** Writes the list's automation straight to the sandbox (as a user would in PropRadar). */
export async function setAutomation(
	sb: EngineSandbox,
	listId: number,
	fields: IDataObject,
): Promise<void> {
	const current = await automationOf(sb, listId);
	delete current.Name;
	const response = await api(sb, 'PUT', `/v1/lists/${listId}/automations`, {
		...current,
		...fields,
	});
	if (response.status !== 200)
		throw new Error(
			`PUT automation of list ${listId}: ${response.status} ${JSON.stringify(response.body)}`,
		);
}

/**
 * The secret PropRadar holds for the trigger's webhook (production or test), which it signs the
 * trigger's deliveries with: the static data holds none.
 */
export async function serviceSecret(
	sb: EngineSandbox,
	wf: TriggerWorkflow,
	test = false,
	token: string = TOKENS.main,
): Promise<string> {
	const webhookId = wf.registration(test).webhookId;
	const response = await api<{ results?: IDataObject[] }>(
		sb,
		'GET',
		'/v1/integrations/webhooks?Fields=WebhookID,Secret',
		undefined,
		token,
	);
	const hook = (response.body.results ?? []).find((candidate) => candidate.WebhookID === webhookId);
	if (!hook) throw new Error(`PropRadar holds no webhook ${String(webhookId)}`);
	return String(hook.Secret);
}

/** Every webhook of the account. */
export async function webhooksOf(
	sb: EngineSandbox,
	token: string = TOKENS.main,
): Promise<IDataObject[]> {
	const response = await api<{ results?: IDataObject[] }>(
		sb,
		'GET',
		'/v1/integrations/webhooks',
		undefined,
		token,
	);
	if (response.status !== 200) throw new Error(`GET webhooks: ${response.status}`);
	return response.body.results ?? [];
}

/** The account's webhooks whose names say a trigger wrote them for the list. */
export async function triggerWebhooksOf(sb: EngineSandbox, listId: number): Promise<IDataObject[]> {
	return (await webhooksOf(sb)).filter((hook) =>
		String(hook.WebhookName).startsWith(`n8n PropRadar Trigger ${listId}:`),
	);
}

/**
 * Makes the sandbox store webhook names cut to `maxLength` characters (undefined: whole), as the
 * service cuts ListName to 50.
 */
export async function cutWebhookNames(sb: EngineSandbox, maxLength?: number): Promise<void> {
	const response = await control(sb, 'PUT', '/_sandbox/webhook-names', {
		maxLength: maxLength ?? null,
	});
	if (response.status !== 200) throw new Error(`PUT /_sandbox/webhook-names: ${response.status}`);
}

/** POSTs a delivery to a trigger URL as PropRadar (or a forger) would. */
export async function postDelivery(
	url: string,
	body: string | unknown,
	authorization?: string,
): Promise<{ status: number; text: string }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			...(authorization === undefined ? {} : { authorization }),
		},
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	return { status: response.status, text: await response.text() };
}

/** What a trigger test gives its workflow beyond the list: by default New Matches, no options, the main account. */
export interface TriggerOn {
	events?: string[];
	options?: IDataObject;
	/** Credential fields on top of the main account's (the sandbox URL and token). */
	credentials?: Partial<CredentialValues> & { allowChargingAutomations?: boolean };
	nodeType?: PropRadarTrigger;
}

/**
 * For a trigger test file: one engine sandbox and one webhook receiver, started before its tests
 * and closed after them, and `trigger(listId, ...)`, a trigger workflow on a list of that sandbox
 * whose deliveries reach that receiver.
 */
export function useTriggerSandbox(): {
	sb: EngineSandbox;
	receiver: WebhookReceiver;
	trigger(listId: number, on?: TriggerOn): TriggerWorkflow;
} {
	const sandbox = deferredEngineSandbox();
	const sb = sandbox.sb;
	const receiver = new WebhookReceiver();
	beforeAll(async () => {
		await sandbox.start();
		await receiver.start();
	});
	afterAll(async () => {
		await receiver.close();
		await sandbox.close();
	});
	const trigger = (
		listId: number,
		{ events = ['newMatches'], options = {}, credentials = {}, nodeType }: TriggerOn = {},
	) =>
		new TriggerWorkflow({
			receiver,
			credentials: {
				baseUrl: sb.url,
				accessToken: TOKENS.main,
				...credentials,
			} as CredentialValues,
			parameters: { listId: listRef(listId), events, options },
			nodeType,
		});
	return { sb, receiver, trigger };
}
