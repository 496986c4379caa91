import type { IExecuteFunctions } from 'n8n-workflow';

/** Whether a parameter's stored value holds an expression anywhere (n8n marks one with a leading "="). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsExpression);
	return false;
}

/** Per node run: what was worked out once for every item, or that it is read for each item. */
const runReads = new WeakMap<IExecuteFunctions, Map<string, { value: unknown } | 'each item'>>();

export function runReadsOf(context: IExecuteFunctions): Map<string, { value: unknown } | 'each item'> {
	let reads = runReads.get(context);
	if (!reads) {
		reads = new Map();
		runReads.set(context, reads);
	}
	return reads;
}

/**
 * What `read` makes of the parameters `names` for an item, worked out once per node run (kept
 * under `key`) when none of them holds an expression: n8n resolves and looks up a parameter on
 * every read, which thousands of items would pay each time. A read that fails is not kept: every
 * item fails alike.
 */
export function onceForEveryItem<T>(context: IExecuteFunctions, key: string, names: string[], itemIndex: number, read: () => T): T {
	const reads = runReadsOf(context);
	const kept = reads.get(key);
	if (kept !== undefined && kept !== 'each item') return kept.value as T;
	const value = read();
	if (kept === undefined) {
		const perItem = names.some((name) => holdsExpression(context.getNodeParameter(name, itemIndex, null, { rawExpressions: true })));
		reads.set(key, perItem ? 'each item' : { value });
	}
	return value;
}
