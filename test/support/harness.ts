/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/node-connection-type-literal, @n8n/community-nodes/node-usable-as-tool -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The engine tier's harness (docs/design.md, "Tests"): real workflows run through n8n-core's
 * `WorkflowExecute` against the real sandbox over HTTP. Between the node and the sandbox sits a
 * recording proxy, so tests can prove what was sent (or that nothing was) and inject faults at
 * the HTTP level. Expressions are evaluated by the expression engine n8n starts by default
 * (`vm`, in isolated-vm), started as n8n starts it; see `useExpressionEngine`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { ExpressionEngineConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import {
	Expression,
	ICredentialsHelper,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type IDataObject,
	type IConnections,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type INode,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { PropRadarApi } from '../../credentials/PropRadarApi.credentials';
import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';

export { TOKENS } from './sandboxApi';

export type ExpressionEngineName = 'vm' | 'legacy' | 'quickjs';

/**
 * n8n's expression settings as n8n reads them (`N8N_EXPRESSION_ENGINE` and the rest, from the
 * environment): its default engine is `vm`. N8N_EXPRESSION_ENGINE=legacy runs the whole tier
 * under the engine users can choose instead.
 */
const n8nExpressionConfig = Container.get(ExpressionEngineConfig);
let fileEngine: ExpressionEngineName = n8nExpressionConfig.engine;

/**
 * The engine a test file's workflows run under, when not n8n's default: called at the file's top
 * level, before its tests start.
 */
export function useExpressionEngine(engine: ExpressionEngineName): void {
	fileEngine = engine;
}

/**
 * Selects the engine from here on, as a process started with N8N_EXPRESSION_ENGINE would have it,
 * the `vm` engine's isolates staying up (for a test that compares the two). n8n itself selects once.
 */
export function selectExpressionEngine(engine: ExpressionEngineName): void {
	Expression.setExpressionEngine(engine);
}

/** The engine that evaluates expressions now. */
export function activeExpressionEngine(): string {
	return Expression.getActiveImplementation();
}

/**
 * Whether a run takes an isolate only when one of its expressions reaches the engine (n8n's
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE): on here unless that is set. n8n's default takes one for
 * every run and builds the next as it is given back, about 0.2 to 0.7 s of CPU on these machines,
 * which the tier's thousands of runs (most with no expression for the engine) would each pay; what
 * an expression evaluates to does not change.
 */
const lazyAcquire =
	process.env.N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE === undefined
		? true
		: n8nExpressionConfig.lazyAcquire;

/**
 * Whether each isolate is built from the runtime bundle compiled once (n8n's
 * N8N_EXPRESSION_ENGINE_COMPILE_CACHE, V8's code cache of the bundle): on here unless that is set.
 * Building an isolate is most of the tier's CPU (each run with an expression for the engine builds
 * one); the cache cuts it by about a fifth (badInputFuzz: 42 s of CPU, 32 s with it). The bundle
 * and what it evaluates are the same.
 */
const compileCache =
	process.env.N8N_EXPRESSION_ENGINE_COMPILE_CACHE === undefined
		? true
		: n8nExpressionConfig.compileCache;

/**
 * Whether a test file's runs share one isolate (n8n's `sharedCaller`, the one scope its editor
 * holds) instead of each run building its own, as n8n's executions do. Building isolates was most
 * of the tier's CPU even from the compiled bundle (badInputFuzz: 32 s of CPU, 11 s shared). The
 * engine, its bridge and what an expression evaluates to are the same: within a run, n8n too
 * evaluates every expression in one isolate, which the bridge resets between evaluations. What a
 * shared isolate does not give is n8n's separation of one execution from the next, which is n8n's
 * to test. ENGINE_ISOLATE_PER_RUN=true runs the tier with an isolate per run, as n8n does.
 */
const sharedCaller = process.env.ENGINE_ISOLATE_PER_RUN !== 'true';

// Started as n8n's start-up starts it (base-command.js in n8n 2.41: `initExpressionEngine` with
// its expression settings), once per test file, and disposed after the file's tests.
beforeAll(async () => {
	const { poolSize, maxCodeCacheSize, bridgeTimeout, bridgeMemoryLimit, idleTimeout } =
		n8nExpressionConfig;
	if (fileEngine === 'legacy') {
		Expression.setExpressionEngine('legacy');
		return;
	}
	await Expression.initExpressionEngine({
		engine: fileEngine,
		poolSize,
		maxCodeCacheSize,
		bridgeTimeout,
		bridgeMemoryLimit,
		idleTimeoutMs: idleTimeout === undefined ? undefined : idleTimeout * 1000,
		lazyAcquire,
		compileCache,
		sharedCaller,
	});
	if (Expression.getActiveImplementation() !== fileEngine)
		throw new Error(`n8n's ${fileEngine} expression engine did not start`);
});
afterAll(() => Expression.disposeExpressionEngine());

/** A request as the proxy saw it on its way to the sandbox. */
export interface RecordedRequest {
	method: string;
	path: string;
	query: URLSearchParams;
	body: string;
	authorization?: string;
	/** The `X-Prop-Access-Token` header, which the import endpoint also accepts. */
	accessTokenHeader?: string;
	/** Which of the proxy's connections it came on (numbered from 1 as they are accepted). */
	connection: number;
}

/** A fault the proxy answers with instead of forwarding, for the next `count` matching requests. */
export interface Fault {
	method?: string;
	pathPrefix: string;
	/** Query parameters the request must carry, e.g. `{ Purchase: '1' }`. */
	query?: Record<string, string>;
	/** Only requests whose body holds this text (a request among several sent together). */
	bodyIncludes?: string;
	/** Let this many matching requests through before the fault strikes. */
	skip?: number;
	count: number;
	status?: number;
	/** Headers of the answer; without a Retry-After of its own it says 0 (`answerWithFault`). */
	headers?: Record<string, string>;
	body?: unknown;
	/** Close the connection without answering. */
	drop?: boolean;
	/** Forward the request, then drop the connection instead of answering (the call happened). */
	dropAfterForward?: boolean;
	/** Forward the request, then answer with `status` (and `body`) instead of the sandbox's answer. */
	statusAfterForward?: boolean;
	/** Wait this long before the fault strikes. */
	delayMs?: number;
	/** Runs just before the request is forwarded: another client acting between two requests. */
	beforeForward?: () => Promise<void>;
	/** Forward the request, then answer with the service's status and this rewrite of its JSON body (a partial answer). */
	rewrite?: (body: IDataObject) => unknown;
	/** Answer `status` with an error object that repeats everything the request carried: a server that echoes. */
	echo?: boolean;
}

export interface EngineSandbox {
	/** The proxy's URL: what the credential points at. */
	url: string;
	sandbox: RunningSandbox;
	requests: RecordedRequest[];
	faults: Fault[];
	/** How many TCP connections the proxy has accepted since it started. */
	connections(): number;
	/** How many requests the proxy holds now: received, and not yet answered (or dropped). */
	inFlight(): number;
	/**
	 * Stops listening: each new connection is refused (ECONNREFUSED) until `acceptConnections`,
	 * while a request under way is still answered. The service unreachable from one request to the next.
	 */
	refuseConnections(): void;
	acceptConnections(): Promise<void>;
	/** Requests to paths starting with `prefix` (and the method, if given). */
	sent(prefix: string, method?: string): RecordedRequest[];
	close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
}

/**
 * Answers with the fault's status, headers and body (by default a 500 with an error object). A
 * fault that sets no Retry-After says 0 (one that sets it to '' sends none), so the transport repeats a read at once instead of after
 * its backoff (250 ms, then 500 ms, then 1 s), which the outages of these tests would otherwise
 * wait out hundreds of times; the retries and what the node does after them are the same. The
 * backoff itself is checked in test/unit/transport.test.ts (`retryDelay`), and waited out here by
 * the faults that drop a connection.
 */
function answerWithFault(response: ServerResponse, fault: Fault): void {
	const headers = { 'content-type': 'application/json', 'retry-after': '0', ...fault.headers };
	// A header given as '' is left out: a 429 without Retry-After (issue 59).
	response.writeHead(
		fault.status ?? 500,
		Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== '')),
	);
	response.end(JSON.stringify(fault.body ?? { error: 'Injected fault', eventid: 'tst-flt-001' }));
}

export async function startEngineSandbox(): Promise<EngineSandbox> {
	const sandbox = await startSandbox({ port: 0 });
	const requests: RecordedRequest[] = [];
	const faults: Fault[] = [];
	let connections = 0;
	const socketNumbers = new WeakMap<Socket, number>();
	const forward = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		const body = await readBody(request);
		const url = new URL(request.url ?? '/', 'http://proxy');
		requests.push({
			method: request.method ?? 'GET',
			path: url.pathname,
			query: url.searchParams,
			body: body.toString('utf8'),
			authorization: request.headers.authorization,
			accessTokenHeader: request.headers['x-prop-access-token'] as string | undefined,
			connection: socketNumbers.get(request.socket) ?? 0,
		});
		let fault = faults.find(
			(candidate) =>
				candidate.count > 0 &&
				url.pathname.startsWith(candidate.pathPrefix) &&
				(!candidate.method || candidate.method === request.method) &&
				(!candidate.bodyIncludes || body.toString('utf8').includes(candidate.bodyIncludes)) &&
				Object.entries(candidate.query ?? {}).every(
					([name, value]) => url.searchParams.get(name) === value,
				),
		);
		if (fault && fault.skip) {
			fault.skip--;
			fault = undefined;
		}
		if (fault) fault.count--;
		const delayMs = fault?.delayMs;
		if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
		if (fault?.beforeForward) await fault.beforeForward();
		if (fault && fault.drop) {
			request.socket.destroy();
			return;
		}
		if (fault?.echo) {
			const echoed = `${request.method} ${request.url} ${JSON.stringify(request.headers)} ${body.toString('utf8')}`;
			response.writeHead(fault.status ?? 400, {
				'content-type': 'application/json',
				'x-prop-request-id': String(request.headers.authorization),
			});
			response.end(
				JSON.stringify({
					error: echoed,
					message: echoed,
					messageTitle: echoed,
					eventid: String(request.headers.authorization),
				}),
			);
			return;
		}
		if (
			fault &&
			!fault.dropAfterForward &&
			!fault.statusAfterForward &&
			!fault.beforeForward &&
			!fault.rewrite
		) {
			answerWithFault(response, fault);
			return;
		}
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(request.headers)) {
			if (
				typeof value === 'string' &&
				!['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)
			)
				headers[name] = value;
		}
		const upstream = await fetch(`${sandbox.url}${url.pathname}${url.search}`, {
			method: request.method,
			headers,
			body: ['GET', 'HEAD'].includes(request.method ?? 'GET') ? undefined : body,
		});
		let text = await upstream.text();
		if (fault?.rewrite) text = JSON.stringify(fault.rewrite(JSON.parse(text) as IDataObject));
		if (fault?.dropAfterForward) {
			request.socket.destroy();
			return;
		}
		if (fault?.statusAfterForward) {
			answerWithFault(response, fault);
			return;
		}
		const out: Record<string, string> = {};
		upstream.headers.forEach((value, name) => {
			if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))
				out[name] = value;
		});
		response.writeHead(upstream.status, out);
		response.end(text);
	};
	// Requests being proxied; `close` lets them end first, so that none is cut off (ECONNRESET from
	// the closed sandbox) after its test, such as one a fault held until the test was over. One
	// that fails all the same loses its connection, as a network failure would.
	const inFlight = new Set<Promise<void>>();
	const server: Server = createServer((request, response) => {
		const handled = forward(request, response).catch(() => {
			request.socket.destroy();
		});
		inFlight.add(handled);
		void handled.finally(() => inFlight.delete(handled));
	});
	server.on('connection', (socket) => socketNumbers.set(socket, ++connections));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		sandbox,
		requests,
		faults,
		connections: () => connections,
		inFlight: () => inFlight.size,
		refuseConnections: () => server.close(),
		async acceptConnections() {
			if (!server.listening)
				await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
		},
		sent: (prefix, method) =>
			requests.filter((r) => r.path.startsWith(prefix) && (!method || r.method === method)),
		async close() {
			await Promise.all(inFlight);
			server.closeAllConnections();
			if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
			await sandbox.close();
		},
	};
}

/** A start node that emits the items given in its parameter: how tests feed input items. */
class FixedItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fixed Items',
		name: 'fixedItems',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

const NODE_TYPES: Record<string, INodeType> = {
	'test.fixedItems': new FixedItems(),
	'n8n-nodes-propradar.propRadar': new PropRadar(),
};

export const nodeTypes: INodeTypes = {
	getByName: (type: string) => NODE_TYPES[type] as INodeType | IVersionedNodeType,
	getByNameAndVersion: (type: string) => {
		const nodeType = NODE_TYPES[type];
		if (!nodeType) throw new Error(`Unknown node type ${type}`);
		return nodeType;
	},
	getKnownTypes: () => ({}),
};

export function registerNodeType(type: string, nodeType: INodeType): void {
	NODE_TYPES[type] = nodeType;
}

const credentialType = new PropRadarApi();

/**
 * Credentials for the engine: the values a test gives, applied with the credential's own
 * `authenticate` (the Authorization header it sets).
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: ICredentialDataDecryptedObject) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return credentialType.authenticate(credentials, requestOptions);
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by the engine tests');
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		return { ...this.data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(): INodeProperties[] {
		return credentialType.properties;
	}
}

export interface CredentialValues {
	baseUrl: string;
	accessToken: string;
	spendingCeiling?: number;
}

let executions = 0;

export function additionalDataFor(
	credentials: CredentialValues,
	workflowData: IWorkflowBase,
): IWorkflowExecuteAdditionalData {
	// Every run is an execution of its own, as in n8n (the credential's ceiling is per execution).
	const executionId = `test-execution-${++executions}`;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	return {
		credentialsHelper: new TestCredentialsHelper({ spendingCeiling: 0, ...credentials }),
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		userId: 'test-user',
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		executeWorkflow: async () => {
			throw new Error('not used by the engine tests');
		},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('not used by the engine tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** An error of a node as a run result reports it: a plain object (check `name`, not `instanceof`). */
export interface RunError {
	name: string;
	message: string;
	description?: string | null;
	httpCode?: string | null;
	context?: IDataObject;
}

export interface NodeRun {
	/** Output items of the PropRadar node (first output). */
	items: INodeExecutionData[];
	json: IDataObject[];
	/** Items of n8n's error output, with "On Error: Continue (using error output)" (`onError: 'continueErrorOutput'`). */
	errorOutput: INodeExecutionData[];
	error?: RunError;
	run: IRun;
}

export interface RunNodeOptions {
	/** Input items for the node. Default: one empty item. */
	items?: IDataObject[];
	credentials: CredentialValues;
	/** n8n's node setting "On Error: Continue". */
	continueOnFail?: boolean;
	/** Other node settings, such as `retryOnFail`, `maxTries`, `waitBetweenTries`. */
	nodeSettings?: Partial<
		Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'onError' | 'typeVersion'>
	>;
	nodeType?: string;
	/** Stops the execution when aborted, as n8n's stop button or the workflow's timeout does (WorkflowExecute's `cancel`). */
	cancel?: AbortSignal;
	/**
	 * Custom data the execution holds when it starts, as an execution resumed from n8n's database
	 * (after a Wait node, in another process) holds what was kept before it waited.
	 */
	customData?: Record<string, string>;
	/** `runChain`: each PropRadar node after the first is fed by the Error output of the one before. */
	chainOnErrorOutput?: boolean;
}

/** The engine tests' workflow of `nodes`: as stored (for the execution's hooks) and as n8n runs it. */
function testWorkflow(
	nodes: INode[],
	connections: IConnections,
): { workflowData: IWorkflowBase; workflow: Workflow } {
	const workflowData = {
		id: 'test-workflow',
		name: 'engine test',
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'engine test',
		nodes,
		connections,
		active: false,
		nodeTypes,
		staticData: {},
	});
	return { workflowData, workflow };
}

/**
 * Runs a two-node workflow, `Fixed Items -> PropRadar (parameters)`, through `WorkflowExecute`, and
 * returns the PropRadar node's output or error.
 */
export async function runNode(parameters: IDataObject, options: RunNodeOptions): Promise<NodeRun> {
	return (await runChain([parameters], options))[0];
}

/**
 * Runs `Fixed Items -> PropRadar -> PropRadar 2 -> ...` (one node per parameter set, all with the
 * same credential and settings) as one execution, and returns each PropRadar node's output or error.
 */
export async function runChain(chain: IDataObject[], options: RunNodeOptions): Promise<NodeRun[]> {
	const names = chain.map((_, index) => (index === 0 ? 'PropRadar' : `PropRadar ${index + 1}`));
	const nodes: INode[] = [
		{
			id: 'items',
			name: 'Items',
			type: 'test.fixedItems',
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(options.items ?? [{}]) },
		},
		...chain.map((parameters, index): INode => ({
			id: `propradar-${index}`,
			name: names[index],
			type: options.nodeType ?? 'n8n-nodes-propradar.propRadar',
			typeVersion: 1,
			position: [200 * (index + 1), 0],
			parameters: parameters as INode['parameters'],
			credentials: { propRadarApi: { id: 'cred-1', name: 'PropRadar account' } },
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			...options.nodeSettings,
		})),
	];
	const connections: IConnections = {};
	['Items', ...names].slice(0, -1).forEach((from, index) => {
		const next = [{ node: names[index], type: 'main' as const, index: 0 }];
		connections[from] = { main: index > 0 && options.chainOnErrorOutput ? [[], next] : [next] };
	});
	const last = names[names.length - 1];
	const { workflowData, workflow } = testWorkflow(nodes, connections);
	const additionalData = additionalDataFor(options.credentials, workflowData);
	if (options.customData) {
		const customData = options.customData;
		additionalData.hooks!.addHandler(
			'workflowExecuteBefore',
			async (_workflow, runExecutionData) => {
				runExecutionData!.resultData.metadata = { ...customData };
			},
		);
	}
	let run: IRun;
	try {
		const running = new WorkflowExecute(additionalData, 'manual').run({
			workflow,
			startNode: nodes[0],
			destinationNode: { nodeName: last, mode: 'inclusive' },
		} as never);
		options.cancel?.addEventListener('abort', () => running.cancel(), { once: true });
		run = await running;
	} catch (error) {
		// n8n refuses to start a workflow whose parameters fail their own validation (as the editor shows).
		const { name, message } = error as Error;
		return names.map(() => ({
			items: [],
			json: [],
			errorOutput: [],
			error: { name, message },
			run: undefined as unknown as IRun,
		}));
	}
	return names.map((nodeName) => {
		const nodeRuns = run.data.resultData.runData[nodeName] ?? [];
		const lastRun = nodeRuns[nodeRuns.length - 1];
		const items = lastRun?.data?.main?.[0] ?? [];
		const errorOutput =
			options.nodeSettings?.onError === 'continueErrorOutput'
				? (lastRun?.data?.main?.[1] ?? [])
				: [];
		const error = (lastRun?.error ?? (nodeRuns.length ? undefined : run.data.resultData.error)) as
			RunError | undefined;
		return { items, json: items.map((item) => item.json), errorOutput, error, run };
	});
}

/**
 * The context n8n gives a node's `methods` (list search and load options) when the editor asks
 * for a picker's choices: a one-node workflow holding the node's current parameters, with the
 * credential applied through its own `authenticate`, as n8n's dynamic node parameters service
 * builds it. `path` is the parameter the picker belongs to.
 */
export function loadOptionsContext(
	credentials: CredentialValues,
	parameters: IDataObject = {},
	path = 'parameters',
): ILoadOptionsFunctions {
	const node: INode = {
		id: 'propradar',
		name: 'PropRadar',
		type: 'n8n-nodes-propradar.propRadar',
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { propRadarApi: { id: 'cred-1', name: 'PropRadar account' } },
	};
	const { workflowData, workflow } = testWorkflow([node], {});
	const additionalData = additionalDataFor(credentials, workflowData);
	additionalData.currentNodeParameters = parameters as INode['parameters'];
	return new LoadOptionsContext(workflow, workflow.getNode(node.name)!, additionalData, path);
}
