/**
 * An execution as n8n stored it, read through its REST API with a logged-in client
 * (scripts/n8n-host.js `login`): its status and each node's run data. n8n's `GET
 * /rest/executions/:id` gives the run data as a "flatted" string (the `flatted` package's format:
 * a JSON array whose first entry is the value; inside an object or array of it, every string is
 * the index of the entry it stands for), which `unflatten` reads back.
 */
import type { N8nClient } from '../../scripts/n8n-host';
import { until } from './until';

/** The value a "flatted" text holds (objects met twice come back as one object). */
export function unflatten(text: string): unknown {
	const table = JSON.parse(text) as unknown[];
	const read = new Map<number, unknown>();
	const at = (index: number): unknown => {
		if (read.has(index)) return read.get(index);
		const entry = table[index];
		if (entry === null || typeof entry !== 'object') return entry;
		const value: Record<string, unknown> | unknown[] = Array.isArray(entry) ? [] : {};
		read.set(index, value);
		for (const [key, inner] of Object.entries(entry))
			(value as Record<string, unknown>)[key] =
				typeof inner === 'string' ? at(Number(inner)) : inner;
		return value;
	};
	return at(0);
}

export interface NodeRun {
	executionStatus?: string;
	error?: { message: string; description?: string };
	data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
}

export interface StoredExecution {
	id: string;
	status: string;
	finished: boolean;
	/** Every node that ran, by name, with its runs. */
	runData: Record<string, NodeRun[]>;
	error?: { message: string };
}

const filter = (workflowId: string) => encodeURIComponent(JSON.stringify({ workflowId }));

/** The id and status of the workflow's newest execution, if it has any. */
export async function newestExecution(
	client: N8nClient,
	workflowId: string,
): Promise<{ id: string; status: string } | undefined> {
	const { results } = (await client.rest(
		'GET',
		`/executions?filter=${filter(workflowId)}&limit=1`,
	)) as { results: Array<{ id: string; status: string }> };
	return results[0];
}

export async function storedExecution(client: N8nClient, id: string): Promise<StoredExecution> {
	const stored = (await client.rest('GET', `/executions/${id}`)) as {
		id: string;
		status: string;
		finished: boolean;
		data: string;
	};
	const data = unflatten(stored.data) as {
		resultData: { runData: Record<string, NodeRun[]>; error?: { message: string } };
	};
	return {
		id: stored.id,
		status: stored.status,
		finished: stored.finished,
		runData: data.resultData.runData,
		error: data.resultData.error,
	};
}

/**
 * The execution of the workflow that `start` (a click in the editor) sets off, once it is over: the
 * newest, when it is newer than the newest before the click.
 */
export async function executionStartedBy(
	client: N8nClient,
	workflowId: string,
	start: () => Promise<void>,
): Promise<StoredExecution> {
	const before = (await newestExecution(client, workflowId))?.id;
	await start();
	const done = await until(
		`an execution of ${workflowId} after ${before ?? 'none'} to end`,
		async () => {
			const newest = await newestExecution(client, workflowId);
			return newest &&
				newest.id !== before &&
				!['new', 'running', 'waiting'].includes(newest.status)
				? newest
				: undefined;
		},
		180_000,
		500,
	);
	return storedExecution(client, done.id);
}

/** The items of a node's last run on output `output` (0: the main output, 1: an error output). */
export function outputOf(
	execution: StoredExecution,
	node: string,
	output = 0,
): Array<Record<string, unknown>> {
	const runs = execution.runData[node];
	if (!runs) throw new Error(`node "${node}" did not run in execution ${execution.id}`);
	return (runs[runs.length - 1].data?.main[output] ?? []).map((item) => item.json);
}
