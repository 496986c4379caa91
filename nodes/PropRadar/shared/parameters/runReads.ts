import type { IExecuteFunctions } from 'n8n-workflow';

/** Whether a parameter's stored value holds an expression anywhere (n8n marks one with a leading "="). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}

const runReads = new WeakMap<IExecuteFunctions, Map<string, { value: unknown } | 'each item'>>();

export function runReadsOf(
	context: IExecuteFunctions,
): Map<string, { value: unknown } | 'each item'> {
	let reads = runReads.get(context);
	if (!reads) {
		reads = new Map();
		runReads.set(context, reads);
	}
	return reads;
}

// n8n resolves and looks up a parameter on every read, which thousands of items would each pay.
// A read that fails is not kept: every item fails alike.
export function onceForEveryItem<T>(
	context: IExecuteFunctions,
	key: string,
	names: string[],
	itemIndex: number,
	read: () => T,
): T {
	const reads = runReadsOf(context);
	const kept = reads.get(key);
	if (kept !== undefined && kept !== 'each item') return kept.value as T;
	const value = read();
	if (kept === undefined) {
		const perItem = names.some((name) =>
			holdsExpression(context.getNodeParameter(name, itemIndex, null, { rawExpressions: true })),
		);
		reads.set(key, perItem ? 'each item' : { value });
	}
	return value;
}
