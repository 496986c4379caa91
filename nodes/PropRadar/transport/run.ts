/**
 * What the transport keeps for one node run (its credential read, its requests in flight), keyed by
 * the run's context: n8n gives every run of a node a context of its own. The transport's one
 * WeakMap, until a run object carries it (issue 58, step 4).
 */
const runs = new WeakMap<object, Map<string, unknown>>();

export function perRun<T>(context: object, key: string, make: () => T): T {
	let state = runs.get(context);
	if (!state) runs.set(context, (state = new Map()));
	if (!state.has(key)) state.set(key, make());
	return state.get(key) as T;
}

export function forget(context: object, key: string): void {
	runs.get(context)?.delete(key);
}
