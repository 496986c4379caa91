import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { isSafeObjectProperty } from 'n8n-workflow';

import { keyProblem, keyText, PERSON_KEY_RULE, PROP_ID_RULE, shownValue } from '../ids';
import { fail } from './checked';
import { runReadsOf } from './runReads';

// The usual way a key comes from the item before; any other expression goes to n8n.
const ITEM_FIELD_EXPRESSION =
	/^=\{\{[ \t\r\n]*\$json((?:\.[A-Za-z_][A-Za-z0-9_]*)+)[ \t\r\n]*\}\}$/;

/** n8n's own check, on the expression's text, before it evaluates anything (`resolveSimpleParameterValue`; not exported). */
const N8N_CONSTRUCTOR_CHECK = /\.\s*constructor/m;

// Not for a name on n8n's deny list, `globalThis` (its sandbox rewrites it), nor a name objects
// inherit (the `vm` engine reads those from the prototype).
function readsOwnField(name: string): boolean {
	return isSafeObjectProperty(name) && name !== 'globalThis' && !(name in Object.prototype);
}

// What n8n's far costlier evaluation gives; undefined, for n8n to evaluate, whenever its answer could
// differ (docs/design.md, "The item's key is the one expression a per-item run evaluates").
function itemFieldText(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
): string | undefined {
	// The parameter's stored value is the same for every item: its field path is worked out once per run.
	const reads = runReadsOf(context);
	const key = `field path of ${name}`;
	let kept = reads.get(key);
	if (kept === undefined || kept === 'each item') {
		const raw = context.getNodeParameter(name, itemIndex, '', { rawExpressions: true }) as unknown;
		const match =
			typeof raw === 'string' && !N8N_CONSTRUCTOR_CHECK.test(raw.slice(1))
				? ITEM_FIELD_EXPRESSION.exec(raw)
				: null;
		const fields = match ? match[1].slice(1).split('.') : [];
		kept = { value: match && fields.every(readsOwnField) ? fields : null };
		reads.set(key, kept);
	}
	const path = kept.value as string[] | null;
	if (path === null) return undefined;
	let value: unknown = context.getInputData()[itemIndex]?.json;
	for (const field of path) {
		if (
			typeof value !== 'object' ||
			value === null ||
			Array.isArray(value) ||
			!Object.hasOwn(value, field)
		)
			return undefined;
		value = (value as IDataObject)[field];
	}
	return typeof value === 'string' ? value : undefined;
}

export function keyParameterValue(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
): unknown {
	// n8n's own check of a text parameter only looks it up in the description; the reader checks the key.
	return (
		itemFieldText(context, itemIndex, name) ??
		(context.getNodeParameter(name, itemIndex, '', { skipValidation: true }) as unknown)
	);
}

function readKey(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
	example: string,
	/** An operation whose items carry the key. */
	source: string,
): string {
	const value = keyParameterValue(context, itemIndex, name);
	const text = keyText(value ?? '');
	const problem =
		text === undefined
			? `is a ${Array.isArray(value) ? 'list' : typeof value}, not text`
			: keyProblem(text);
	if (problem) {
		const missing = text === '' ? missingItemField(context, itemIndex, name) : undefined;
		fail(
			context,
			itemIndex,
			missing
				? `${label}: "" is empty: the input item at index ${itemIndex} has no ${missing} field ` +
						`(an item from a Manual Trigger has none); run this node after one that gives ` +
						`${missing}, such as ${source}, or enter the key itself; ${example}`
				: `${label}: "${shownValue(text ?? value)}" ${problem}; ${example}`,
		);
	}
	return text!;
}

// Every `$json.a.b` an expression reads, in any form (`{{ $json.PropID }}`, `{{ ($json.PropID) }}`).
const JSON_FIELD_READ = /\$json((?:\.[A-Za-z_$][\w$]*)+)/g;

/**
 * The first field an empty key's expression reads that the input item lacks. Worked out from the
 * parameter's text and the item, the same whether the node read the key from the item or n8n
 * evaluated it, so that both fail alike.
 */
function missingItemField(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
): string | undefined {
	const raw = context.getNodeParameter(name, itemIndex, '', { rawExpressions: true }) as unknown;
	if (typeof raw !== 'string' || !raw.startsWith('=')) return undefined;
	const item = context.getInputData()[itemIndex]?.json;
	for (const [, path] of raw.matchAll(JSON_FIELD_READ)) {
		let value: unknown = item;
		for (const field of path.slice(1).split('.')) {
			if (typeof value !== 'object' || value === null || !Object.hasOwn(value, field))
				return path.slice(1);
			value = (value as IDataObject)[field];
		}
	}
	return undefined;
}

export function readPropId(
	context: IExecuteFunctions,
	itemIndex: number,
	name = 'propId',
	label = 'Property ID',
): string {
	return readKey(context, itemIndex, name, label, PROP_ID_RULE, 'Property > Search');
}

export function readPropIds(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string[] {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	const entries = (Array.isArray(value) ? value : [value]).flatMap((entry) =>
		typeof entry === 'string' ? entry.split(',') : [entry],
	);
	const propIds: string[] = [];
	for (const entry of entries) {
		if (entry === undefined || entry === null) continue;
		const text = keyText(entry);
		if (text === '') continue;
		const problem =
			text === undefined
				? `is a ${Array.isArray(entry) ? 'list' : typeof entry}, not text`
				: keyProblem(text);
		if (problem)
			fail(
				context,
				itemIndex,
				`${label}: "${shownValue(text ?? entry)}" ${problem}; ${PROP_ID_RULE}`,
			);
		propIds.push(text!);
	}
	return propIds;
}

export function readPersonKey(
	context: IExecuteFunctions,
	itemIndex: number,
	name = 'personKey',
	label = 'Person Key',
): string {
	return readKey(context, itemIndex, name, label, PERSON_KEY_RULE, 'Person > Get Owners');
}
