/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/** Types of scripts/n8n-host.js (plain CommonJS, shared by the demo, the e2e tier and the benchmarks). */
import type { ChildProcess } from 'node:child_process';

/** An n8n home ready to start: its folder, port, address and environment. */
export interface N8nHost {
	url: string;
	port: number;
	userFolder: string;
	env: Record<string, string>;
	/** The n8n release that runs this home (`prepare`'s `n8nVersion`). */
	n8nVersion?: string;
	/** That release's `n8n` command; without it, the newest release's. */
	bin?: string;
	/** The ids of the workflows `prepare` imported (those the home did not hold yet). */
	imported?: string[];
}

export interface RunningN8n extends N8nHost {
	child: ChildProcess;
	stop(): Promise<void>;
}

/** The REST API of a running n8n, logged in as the owner. */
export interface N8nClient {
	cookie: string;
	/** The address of the n8n it is logged in to. */
	url?: string;
	/** That n8n's `n8n` command (its release's install). */
	bin?: string;
	rest(method: string, path: string, body?: unknown): Promise<unknown>;
}

export interface PrepareOptions {
	sandboxUrl: string;
	/** Workflow objects, with their ids; only those the home does not hold yet are imported. */
	workflows?: unknown[];
	userFolder?: string;
	port?: number;
	token?: string;
	/** The credential's spending ceiling: `none` (the default) No Ceiling; `default` the credential's own default, as a credential new in the editor (the demo). */
	ceiling?: 'none' | 'default';
	logLevel?: string;
	/** Packs this package into the home's community nodes folder (the default); false leaves that folder as it is. */
	install?: boolean;
	/** The installed n8n release to run: `newest` (the default), `oldest` or a release number (scripts/n8n-install.sh installs it). */
	n8nVersion?: string;
	signal?: AbortSignal;
}

/** Packs this package (`npm pack`) into `dir`; resolves to the tarball's path. */
export function pack(dir: string, signal?: AbortSignal): Promise<string>;
/** The environment variable naming a tarball `prepare` installs instead of packing the package again. */
export const PACKED: string;
export function prepare(options: PrepareOptions): Promise<N8nHost>;
/** The data of the PropRadar credential `prepare` imports (what n8n stores; n8n fills in the defaults of what it leaves out). */
export function credentialData(options: {
	sandboxUrl: string;
	token?: string;
	ceiling?: 'none' | 'default';
}): Record<string, unknown>;
/**
 * Starts `n8n start` and resolves once it is ready. When n8n exits at start while another process
 * holds its task broker port, it is started again on a free one (three times at most): the running
 * n8n's `env` holds the port it got.
 */
export function start(
	host: N8nHost,
	options?: { logFile?: string; timeoutMs?: number; signal?: AbortSignal },
): Promise<RunningN8n>;
/** n8n in queue mode, as `startQueue` started it. */
export interface RunningQueue {
	/** The main process (editor, REST API, activation); `stop()` of the whole set stops it too. */
	main: RunningN8n;
	/** What the main process was started with, to start it again after stopping it. */
	mainHost: N8nHost;
	/** The webhook process's address (N8N_WEBHOOK_URL of every process). */
	webhookUrl: string;
	/** The last output of Redis, the workers and the webhook process, for a failure message. */
	outputs(): string;
	stop(): Promise<void>;
}
/**
 * Starts n8n in queue mode on `host`'s home: redis-server on a free port, the main process,
 * `workers` workers (`concurrency` executions each, 1 and 10 unless given) and one webhook process,
 * whose address is N8N_WEBHOOK_URL. `env` is added to every process's environment. When a process
 * exits because its port was taken meanwhile, all start again on new ports (`freePort` picks them).
 */
export function startQueue(
	host: N8nHost,
	options?: {
		workers?: number;
		concurrency?: number;
		env?: Record<string, string>;
		logFile?: string;
		freePort?: () => Promise<number>;
	},
): Promise<RunningQueue>;
export function login(host: Pick<N8nHost, 'url'>): Promise<N8nClient>;
export function activate(client: N8nClient, workflowId: string): Promise<unknown>;
export function deactivate(client: N8nClient, workflowId: string): Promise<unknown>;
/**
 * Runs a workflow with `n8n execute --id --rawOutput` and resolves to its run data; rejects with
 * n8n's output when the run fails. Its task broker listens on a port of its own (`onFreeBrokerPort`).
 */
export function execute(
	host: N8nHost,
	workflowId: string,
	options?: { brokerPort?: () => Promise<number>; timeoutMs?: number },
): Promise<unknown>;
/**
 * Runs a workflow in the running n8n `client` is logged in to, as the editor's "Execute workflow"
 * does (POST /rest/workflows/:id/run from its Manual Trigger), waits for the execution to end and
 * resolves to it in the shape `execute` gives; rejects with the error's message when the run fails.
 */
export function runWorkflow(
	client: N8nClient,
	workflowId: string,
	options?: { timeoutMs?: number },
): Promise<unknown>;
/**
 * Runs `attempt` with a free port for `n8n execute`'s task broker, and again on another port (three
 * times at most) when n8n says at start-up, before running the workflow, that the port was taken.
 */
export function onFreeBrokerPort<T>(
	attempt: (port: string) => Promise<T>,
	brokerPort?: () => Promise<number>,
): Promise<T>;
/**
 * The execution `n8n execute --rawOutput` printed, given how its process ended (exit code, or the
 * signal that ended it). A finished execution printed before a crash by a signal counts, and is
 * said; any other failure throws with n8n's output.
 */
export function printedExecution(
	workflowId: string,
	ended: { stdout: string; stderr?: string; code: number | null; signal: NodeJS.Signals | null },
): unknown;
/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number>;
export const OWNER: { email: string; password: string; firstName: string; lastName: string };
export const CREDENTIAL: { id: string; name: string };
/** The n8n releases the package is tested on (scripts/n8n-versions.js): the newest, and the oldest supported. */
export const N8N_VERSIONS: { newest: string; oldest: string };
