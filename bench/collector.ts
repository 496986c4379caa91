/**
 * Full garbage collections of the running n8n between the benchmark's timed cases, through
 * Node's inspector, so that each case's node time holds the collections of its own garbage and
 * not those of the case before it (the HTTP Request node's import leaves some hundreds of MB of it,
 * whose collection otherwise lands in whichever run comes next). n8n is started with
 * `--inspect=127.0.0.1:<port>` (loopback only, the benchmark's own n8n); nothing else of the
 * inspector is used, and no collection is asked for while a case is timed.
 *
 * The collection is V8's ordinary full one (`gc()`, which the inspector's own `require` makes
 * available in n8n's process), not the inspector's `HeapProfiler.collectGarbage`: that one is a
 * low-memory collection, which also shrinks V8's young generation to 1 MB, so the run after it
 * pays for the generation to grow again (a scavenge every megabyte or so, each copying what the
 * run keeps), which no n8n that has been running pays.
 */
export interface Collector {
	/** A full collection of n8n's heap, returned once it is done. */
	collect(): Promise<void>;
	/** How many collections were done. */
	readonly collections: number;
	/** Ends the connection: `collect` asks for no more collections from then on. */
	close(): void;
}

/** The `--inspect` option that `connectCollector` needs n8n started with. */
export const inspectOption = (port: number) => `--inspect=127.0.0.1:${port}`;

/**
 * Evaluated in n8n's process: a full, synchronous collection through `gc`, which `--expose-gc`
 * set at run time makes available to a new context (n8n is not started with it).
 */
const FULL_COLLECTION =
	"require('v8').setFlagsFromString('--expose-gc'); require('vm').runInNewContext('gc')({ type: 'major', execution: 'sync' }); undefined";

export async function connectCollector(port: number): Promise<Collector> {
	const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
		webSocketDebuggerUrl: string;
	}>;
	if (!targets[0]) throw new Error(`n8n's inspector on port ${port} lists no target`);
	const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
	await new Promise<void>((resolve, reject) => {
		socket.onopen = () => resolve();
		socket.onerror = () =>
			reject(new Error(`n8n's inspector on port ${port} refused the connection`));
	});
	let lastId = 0;
	const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
	socket.onmessage = (message) => {
		const answer = JSON.parse(String(message.data)) as {
			id?: number;
			error?: { message: string };
			result?: { exceptionDetails?: { exception?: { description?: string } } };
		};
		const call = answer.id === undefined ? undefined : waiting.get(answer.id);
		if (!call) return;
		waiting.delete(answer.id!);
		const thrown = answer.result?.exceptionDetails;
		if (answer.error) call.reject(new Error(`n8n's inspector: ${answer.error.message}`));
		else if (thrown)
			call.reject(
				new Error(
					`n8n's inspector: the collection threw ${thrown.exception?.description ?? 'an exception'}`,
				),
			);
		else call.resolve();
	};
	const send = (method: string, params: object) =>
		new Promise<void>((resolve, reject) => {
			const id = ++lastId;
			waiting.set(id, { resolve, reject });
			socket.send(JSON.stringify({ id, method, params }));
		});
	let collections = 0;
	let closed = false;
	return {
		collect: async () => {
			if (closed) return;
			await send('Runtime.evaluate', { expression: FULL_COLLECTION, includeCommandLineAPI: true });
			collections++;
		},
		get collections() {
			return collections;
		},
		close: () => {
			closed = true;
			socket.close();
		},
	};
}
