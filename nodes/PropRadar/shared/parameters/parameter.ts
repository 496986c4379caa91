import type { IExecuteFunctions, IGetNodeParameterOptions } from 'n8n-workflow';

// n8n resolves, copies and validates a parameter on every read (`_getNodeParameter` in n8n's
// packages/core/src/execution-engine/node-execution-context/node-execution-context.ts): thousands
// of items pay that for each parameter. A stored value with no expression in it (n8n marks one with
// a leading "=") is the same for every item, so a run reads it once. docs/design.md lists this dependency.
const fixedReads = new WeakMap<IExecuteFunctions, Map<string, { value: unknown } | 'each item'>>();

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}

/** Whether a parameter is the same for every item: nothing in its stored value is an expression. */
export function isFixed(context: IExecuteFunctions, name: string): boolean {
	// A dotted name reads into a parameter: the whole parameter decides.
	return !holdsExpression(context.getNode().parameters[name.split('.')[0]]);
}

/** `getNodeParameter`, read once per run when the parameter holds no expression. */
export function parameter(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options?: IGetNodeParameterOptions,
): unknown {
	let reads = fixedReads.get(context);
	if (!reads) fixedReads.set(context, (reads = new Map()));
	// Read with another fallback or other options, a parameter is another read.
	const fallbackKey = typeof fallback === 'object' ? JSON.stringify(fallback) : String(fallback);
	const key = `${name} ${fallbackKey} ${options ? JSON.stringify(options) : ''}`;
	let kept = reads.get(key);
	if (kept === undefined) {
		kept = isFixed(context, name)
			? { value: context.getNodeParameter(name, itemIndex, fallback, options) }
			: 'each item';
		reads.set(key, kept);
	}
	if (kept === 'each item') return context.getNodeParameter(name, itemIndex, fallback, options);
	// Each reader gets its own copy, as from n8n.
	return typeof kept.value === 'object' && kept.value !== null
		? structuredClone(kept.value)
		: kept.value;
}

/** `read` for each item, or once for the run when the parameter it reads holds no expression. */
export function readerOf<T>(
	context: IExecuteFunctions,
	name: string,
	read: (itemIndex: number) => T,
): (itemIndex: number) => T {
	if (!isFixed(context, name)) return read;
	let kept: { value: T } | undefined;
	return (itemIndex) => (kept ??= { value: read(itemIndex) }).value;
}
