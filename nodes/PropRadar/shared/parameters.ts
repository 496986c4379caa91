import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { isSafeObjectProperty, NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../transport';
import { CRITERIA_MODE, CriteriaError, readCriteria, type Criterion } from './criteria';
import { toFieldsParam, type FieldsChoice } from './fieldsets';
import type { FieldScopeName } from './vocabulary';
import { keyProblem, keyText, parseNumberedId, PERSON_KEY_RULE, PROP_ID_RULE, shownValue, type NumberedId } from './ids';

/**
 * Parameters several operations share, and the readers that check them before anything is sent:
 * each bad value is refused with an error naming the field and what it allows.
 */

/** Whether a parameter's stored value holds an expression anywhere (n8n marks one with a leading "="). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsExpression);
	return false;
}

/** Per node run: what was worked out once for every item, or that it is read for each item. */
const runReads = new WeakMap<IExecuteFunctions, Map<string, { value: unknown } | 'each item'>>();

/**
 * What `read` makes of the parameters `names` for an item, worked out once per node run (and kept
 * under `key`) when none of them holds an expression, so that it is the same for every item. n8n
 * resolves a parameter and looks it up in the node's whole description on every read, which a run
 * of thousands of items would otherwise pay for each item. A read that fails is not kept: every
 * item fails alike.
 */
function runReadsOf(context: IExecuteFunctions): Map<string, { value: unknown } | 'each item'> {
	let reads = runReads.get(context);
	if (!reads) {
		reads = new Map();
		runReads.set(context, reads);
	}
	return reads;
}

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

/**
 * A list picker: "From List" (the account's lists by name, through `searchListMethod` of
 * methods/listSearch.ts) or "By ID".
 */
export function listLocator(show: IDisplayOptions['show'], displayName = 'List', name = 'listId', searchListMethod = 'searchLists'): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		// n8n 2.0 reads every rule of displayOptions as an object: a property shown always has none.
		...(show ? { displayOptions: { show } } : {}),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '42',
				validation: [{ type: 'regex', properties: { regex: '^\\d+$', errorMessage: 'A list ID is a whole number' } }],
			},
		],
	};
}

/** The picker of a list that must be static (List Item > Add): "From List" offers the static lists only. */
export function staticListLocator(show: IDisplayOptions['show']): INodeProperties {
	return {
		...listLocator(show, 'Static List', 'listId', 'searchStaticLists'),
		description: 'Items can be added to static lists only: From List offers those',
	};
}

export function propIdProperty(show: IDisplayOptions['show']): INodeProperties {
	return {
		displayName: 'Property ID',
		name: 'propId',
		type: 'string',
		required: true,
		// The input item's PropID, as List Item > Add's Property IDs: what Property > Search, List Item > Get Many and Get Owners give.
		default: '={{ $json.PropID }}',
		placeholder: 'P000123',
		description: 'The PropID of the property. By default the input item\'s PropID.',
		...(show ? { displayOptions: { show } } : {}),
	};
}

export function personKeyProperty(show: IDisplayOptions['show']): INodeProperties {
	return {
		displayName: 'Person Key',
		name: 'personKey',
		type: 'string',
		required: true,
		// The input item's PersonKey: what Person > Get Owners gives, one item per owner.
		default: '={{ $json.PersonKey }}',
		placeholder: 'K000123A',
		description: 'The PersonKey of an owner, from Person > Get Owners. By default the input item\'s PersonKey.',
		...(show ? { displayOptions: { show } } : {}),
	};
}

export function returnAllProperties(show: IDisplayOptions['show']): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}

function fail(context: IExecuteFunctions, itemIndex: number, message: string): never {
	throw new NodeOperationError(context.getNode(), message, { itemIndex });
}

function readNumberedId(context: IExecuteFunctions, itemIndex: number, value: unknown, label: string, what: string): NumberedId {
	const parsed = parseNumberedId(value, what);
	if ('problem' in parsed) {
		fail(context, itemIndex, `${label}: "${shownValue(typeof value === 'string' ? value.trim() : value)}" ${parsed.problem}`);
	}
	return parsed.id;
}

type OptionValue = string | number | boolean;

/** The values an `options` or `multiOptions` property offers. */
function optionValues(property: INodeProperties): OptionValue[] {
	const values: OptionValue[] = [];
	for (const option of property.options ?? []) {
		if ('value' in option) values.push(option.value as OptionValue);
	}
	return values;
}

/** `"a", "b" or "c"` */
function alternatives(values: OptionValue[]): string {
	const quoted = values.map((value) => JSON.stringify(value));
	return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** The option `value` stands for (compared as text, so "3" from an expression is the option 3), or undefined. */
function optionOf(allowed: OptionValue[], value: unknown): OptionValue | undefined {
	if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
	const text = String(value).trim();
	return allowed.find((option) => String(option) === text);
}

/** What a number property allows, said as a rule: "a whole number from 0 to 100". */
function numberRule(property: INodeProperties): string {
	const { minValue, maxValue, numberPrecision } = property.typeOptions ?? {};
	const kind = numberPrecision ? 'a number' : 'a whole number';
	if (minValue !== undefined && maxValue !== undefined) return `${kind} from ${minValue} to ${maxValue}`;
	if (minValue !== undefined) return `${kind}, ${minValue} or more`;
	if (maxValue !== undefined) return `${kind}, ${maxValue} or less`;
	return kind;
}

/** The entries of a field that takes several values: the editor's list, or what an expression gives (a list, comma-separated text, one value). */
export function entriesOf(value: unknown): unknown[] {
	return Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').filter((entry) => entry.trim() !== '') : [value];
}

/**
 * A value of `property` checked against the node's own description of it. n8n passes on what an
 * expression, an imported workflow or an AI agent's tool call gives without that check, and the
 * service would otherwise be the one to refuse it, or take it for something else. Allowed: one of
 * an `options` property's values; a list of a `multiOptions` property's values (or one, or
 * comma-separated text); for a number, a number or its digits as text, whole unless the property
 * takes decimals, within its minimum and maximum; for a boolean, true or false; for a date and
 * time, one JavaScript reads as such, returned as ISO text. Any other value is
 * refused, naming `label` and what is allowed. Returns the value as the option or number it is.
 * Options that n8n loads from the account are passed on as they are.
 */
export function checkedValue(context: IExecuteFunctions, itemIndex: number, property: INodeProperties, value: unknown, label = property.displayName): unknown {
	// Options loaded from the account (status labels, lists) are not known here: the reader of such a field checks it.
	if (property.typeOptions?.loadOptionsMethod !== undefined || property.typeOptions?.loadOptions !== undefined) return value;
	switch (property.type) {
		case 'options': {
			const allowed = optionValues(property);
			const option = optionOf(allowed, value);
			if (option === undefined) fail(context, itemIndex, `${label}: "${shownValue(value)}" is not allowed; use ${alternatives(allowed)}`);
			return option;
		}
		case 'multiOptions': {
			const allowed = optionValues(property);
			return entriesOf(value).map((entry) => {
				const option = optionOf(allowed, entry);
				if (option === undefined) fail(context, itemIndex, `${label}: "${shownValue(entry)}" is not allowed; use any of ${alternatives(allowed)}`);
				return option;
			});
		}
		case 'number': {
			const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			const { minValue, maxValue, numberPrecision } = property.typeOptions ?? {};
			if (
				typeof number !== 'number' ||
				!Number.isFinite(number) ||
				(!numberPrecision && !Number.isInteger(number)) ||
				(minValue !== undefined && number < minValue) ||
				(maxValue !== undefined && number > maxValue)
			) {
				fail(context, itemIndex, `${label}: must be ${numberRule(property)}, got "${shownValue(value)}"`);
			}
			return number;
		}
		case 'boolean':
			return flag(context, itemIndex, value, label);
		case 'dateTime':
			return isoDate(context, itemIndex, value, label);
		default:
			return value;
	}
}

/**
 * A date and time as the ISO text sent: the editor's text, or what an expression gives (text, a
 * time in milliseconds, a JavaScript Date, or a date of n8n's such as `$now.minus(...)`).
 */
function isoDate(context: IExecuteFunctions, itemIndex: number, value: unknown, label: string): string {
	const millis = (value as { toMillis?: unknown } | null)?.toMillis;
	const time =
		value instanceof Date ? value.getTime()
		: typeof value === 'number' ? value
		: typeof value === 'string' && value.trim() !== '' ? Date.parse(value.trim())
		: typeof millis === 'function' ? Number(millis.call(value))
		: NaN;
	const date = new Date(time);
	if (Number.isNaN(date.getTime())) fail(context, itemIndex, `${label}: "${shownValue(value)}" is not a date and time; use one such as 2026-11-01 or 2026-11-01T08:30:00Z`);
	return date.toISOString();
}

function flag(context: IExecuteFunctions, itemIndex: number, value: unknown, label: string): boolean {
	if (typeof value !== 'boolean') fail(context, itemIndex, `${label}: must be on or off (true or false), got "${shownValue(value)}"`);
	return value;
}

/**
 * A boolean parameter, on or off; anything else is refused. An expression may give the text
 * "false", which would otherwise count as on (Allow Charging Automation, Include Secret).
 */
export function readFlag(context: IExecuteFunctions, itemIndex: number, name: string, label: string): boolean {
	return flag(context, itemIndex, context.getNodeParameter(name, itemIndex, false) as unknown, label);
}

/** The property named `name` of an operation's description. */
export function propertyNamed(description: INodeProperties[], name: string): INodeProperties {
	const property = description.find((candidate) => candidate.name === name);
	if (!property) throw new Error(`No property "${name}" in this operation's description`);
	return property;
}

/** An `options` parameter, refused unless it is one of the property's values (see `checkedValue`). */
export function readChoice<T extends OptionValue = string>(context: IExecuteFunctions, itemIndex: number, property: INodeProperties): T {
	return checkedValue(context, itemIndex, property, context.getNodeParameter(property.name, itemIndex, property.default) as unknown) as T;
}

/**
 * A `collection` parameter, each field given checked against its description (see `checkedValue`)
 * and named in an error as "Collection > Field". A field left empty ('', or a list with nothing
 * in it, such as "," from an expression) is left out.
 */
export function readCollection(context: IExecuteFunctions, itemIndex: number, property: INodeProperties): IDataObject {
	const given = context.getNodeParameter(property.name, itemIndex, {}) as unknown;
	if (typeof given !== 'object' || given === null || Array.isArray(given)) {
		fail(context, itemIndex, `${property.displayName}: must be a set of fields, got "${shownValue(given)}"`);
	}
	const fields: IDataObject = {};
	for (const [name, value] of Object.entries(given)) {
		if (value === '' || value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
		const field = property.options?.find((option): option is INodeProperties => 'type' in option && option.name === name);
		const checked = field ? checkedValue(context, itemIndex, field, value, `${property.displayName} > ${field.displayName}`) : value;
		if (Array.isArray(checked) && checked.length === 0) continue;
		fields[name] = checked as IDataObject[string];
	}
	return fields;
}

/** The options of a field whose values are a set of the API's vocabulary, each named by its value with a capital: `import` is "Import". */
export function vocabularyOptions(values: readonly string[]): INodePropertyOptions[] {
	return [...values].sort().map((value) => ({ name: `${value.charAt(0).toUpperCase()}${value.slice(1)}`, value }));
}

/** A list ID from a resource locator (or a plain value), exact: see `parseNumberedId`. */
export function readListId(context: IExecuteFunctions, itemIndex: number, name = 'listId', label = 'List'): NumberedId {
	const value = context.getNodeParameter(name, itemIndex, undefined, { extractValue: true }) as unknown;
	return readNumberedId(context, itemIndex, value ?? '', label, 'a list ID');
}

/** List IDs from a multi-options value, or from an expression's comma-separated text, number or array; each exact. */
export function readListIds(context: IExecuteFunctions, itemIndex: number, name: string, label: string): NumberedId[] {
	const value = context.getNodeParameter(name, itemIndex, []) as unknown;
	const entries = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value === undefined || value === null ? [] : [value];
	return entries
		.filter((entry) => !(typeof entry === 'string' && entry.trim() === ''))
		.map((entry) => readNumberedId(context, itemIndex, entry, label, 'a list ID'));
}

/**
 * A text parameter, trimmed; an expression may give a number. Empty when nothing was given;
 * anything else is refused, and shown in the message unless it is `secret` (a webhook's secret).
 */
export function readText(context: IExecuteFunctions, itemIndex: number, name: string, label: string, { secret = false } = {}): string {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	const kind = Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
	fail(context, itemIndex, `${label}: must be text, got ${secret ? kind : shownValue(value)}`);
}

export function readRequiredString(context: IExecuteFunctions, itemIndex: number, name: string, label: string): string {
	const value = readText(context, itemIndex, name, label);
	if (!value) fail(context, itemIndex, `${label} is required`);
	return value;
}

/** A numbered ID (import item, webhook) from a number or text parameter, exact: see `parseNumberedId`. */
export function readPositiveInteger(context: IExecuteFunctions, itemIndex: number, name: string, label: string): NumberedId {
	return readNumberedId(context, itemIndex, context.getNodeParameter(name, itemIndex) as unknown, label, 'an ID');
}

/**
 * `={{ $json.a }}` or `={{ $json.a.b }}`, with nothing else in it: a read of one of the item's
 * fields, the usual way a key comes from the item before. Any other expression goes to n8n.
 */
const ITEM_FIELD_EXPRESSION = /^=\{\{[ \t\r\n]*\$json((?:\.[A-Za-z_][A-Za-z0-9_]*)+)[ \t\r\n]*\}\}$/;

/** n8n's own check, on the expression's text, before it evaluates anything (`resolveSimpleParameterValue`; not exported). */
const N8N_CONSTRUCTOR_CHECK = /\.\s*constructor/m;

/**
 * Whether n8n's reading of `$json…name` is the item's own field under every engine n8n has. It is
 * not for a name on n8n's deny list (its own check: "Cannot access … due to security concerns");
 * for `globalThis`, which n8n's sandbox rewrites wherever it stands; nor for a name objects
 * inherit (toString, valueOf, hasOwnProperty, …), which the `vm` engine, n8n's default, reads from
 * the object's prototype whatever the item holds.
 */
function readsOwnField(name: string): boolean {
	return isSafeObjectProperty(name) && name !== 'globalThis' && !(name in Object.prototype);
}

/**
 * The item's text at the field a key parameter names by `={{ $json.field }}`, read from the item
 * itself; undefined when the parameter holds anything else, the item has no text there, or n8n's
 * evaluation could be other than that text (`readsOwnField`, n8n's check of `.constructor`), for
 * n8n to evaluate as it would, refusals included. For such an expression n8n returns the item's own
 * value unchanged, after an evaluation in its expression isolate that costs more than the request
 * the key is for. test/engine/itemFieldExpression.test.ts compares the two under both engines.
 */
function itemFieldText(context: IExecuteFunctions, itemIndex: number, name: string): string | undefined {
	// The parameter's stored value is the same for every item: its field path is worked out once per run.
	const reads = runReadsOf(context);
	const key = `field path of ${name}`;
	let kept = reads.get(key);
	if (kept === undefined || kept === 'each item') {
		const raw = context.getNodeParameter(name, itemIndex, '', { rawExpressions: true }) as unknown;
		const match = typeof raw === 'string' && !N8N_CONSTRUCTOR_CHECK.test(raw.slice(1)) ? ITEM_FIELD_EXPRESSION.exec(raw) : null;
		const fields = match ? match[1].slice(1).split('.') : [];
		kept = { value: match && fields.every(readsOwnField) ? fields : null };
		reads.set(key, kept);
	}
	const path = kept.value as string[] | null;
	if (path === null) return undefined;
	let value: unknown = context.getInputData()[itemIndex]?.json;
	for (const field of path) {
		if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, field)) return undefined;
		value = (value as IDataObject)[field];
	}
	return typeof value === 'string' ? value : undefined;
}

/** A key parameter's value for the item, as n8n's evaluation of it gives it (read from the item where `itemFieldText` can). */
export function keyParameterValue(context: IExecuteFunctions, itemIndex: number, name: string): unknown {
	// n8n's own check of a text parameter only looks the parameter up in the node's description;
	// the key is checked by the reader.
	return itemFieldText(context, itemIndex, name) ?? (context.getNodeParameter(name, itemIndex, '', { skipValidation: true }) as unknown);
}

function readKey(context: IExecuteFunctions, itemIndex: number, name: string, label: string, example: string): string {
	const value = keyParameterValue(context, itemIndex, name);
	const text = keyText(value ?? '');
	const problem = text === undefined ? `is a ${Array.isArray(value) ? 'list' : typeof value}, not text` : keyProblem(text);
	if (problem) fail(context, itemIndex, `${label}: "${shownValue(text ?? value)}" ${problem}; ${example}`);
	return text!;
}

export function readPropId(context: IExecuteFunctions, itemIndex: number, name = 'propId', label = 'Property ID'): string {
	return readKey(context, itemIndex, name, label, PROP_ID_RULE);
}

/** PropIDs from comma-separated text, a number, or an array of them (what `{{ $json.ids }}` gives); each checked. */
export function readPropIds(context: IExecuteFunctions, itemIndex: number, name: string, label: string): string[] {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	const entries = (Array.isArray(value) ? value : [value]).flatMap((entry) => (typeof entry === 'string' ? entry.split(',') : [entry]));
	const propIds: string[] = [];
	for (const entry of entries) {
		if (entry === undefined || entry === null) continue;
		const text = keyText(entry);
		if (text === '') continue;
		const problem = text === undefined ? `is a ${Array.isArray(entry) ? 'list' : typeof entry}, not text` : keyProblem(text);
		if (problem) fail(context, itemIndex, `${label}: "${shownValue(text ?? entry)}" ${problem}; ${PROP_ID_RULE}`);
		propIds.push(text!);
	}
	return propIds;
}

export function readPersonKey(context: IExecuteFunctions, itemIndex: number, name = 'personKey', label = 'Person Key'): string {
	return readKey(context, itemIndex, name, label, PERSON_KEY_RULE);
}

/** The `Fields` query value of the item's picker; undefined when nothing was chosen. */
export function readFields(context: IExecuteFunctions, itemIndex: number, scope: FieldScopeName): string | undefined {
	return onceForEveryItem(context, `fields of ${scope}`, ['fields'], itemIndex, () => {
		const choice = context.getNodeParameter('fields', itemIndex, {}) as FieldsChoice;
		try {
			return toFieldsParam(scope, choice);
		} catch (error) {
			fail(context, itemIndex, (error as Error).message);
		}
	});
}

export function readCriteriaParameters(context: IExecuteFunctions, itemIndex: number): Criterion[] {
	const mode = readChoice<'builder' | 'json'>(context, itemIndex, CRITERIA_MODE);
	try {
		return readCriteria({
			mode,
			rows: mode === 'builder' ? (context.getNodeParameter('criteria', itemIndex, {}) as IDataObject) : undefined,
			json: mode === 'json' ? context.getNodeParameter('criteriaJson', itemIndex) : undefined,
		});
	} catch (error) {
		if (error instanceof CriteriaError) fail(context, itemIndex, error.message);
		throw toNodeError(context.getNode(), error, itemIndex);
	}
}

/** How many records Return All / Limit asks for: undefined for all. */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (readFlag(context, itemIndex, 'returnAll', 'Return All')) return undefined;
	const value = context.getNodeParameter('limit', itemIndex, 50) as unknown;
	const limit = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
	if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
		fail(context, itemIndex, `Limit: must be a whole number from 1 up, got "${typeof value === 'number' ? String(value) : shownValue(value)}"`);
	}
	return limit;
}

/** Sort rules (`Sort`/`Dir`) from a fixed collection of {field, direction}. */
export function sortProperty(show: IDisplayOptions['show'], fields: string[], note = ''): INodeProperties {
	return {
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		placeholder: 'Add Sort Rule',
		typeOptions: { multipleValues: true },
		default: {},
		...(show ? { displayOptions: { show } } : {}),
		description: `Order of the results, first rule first${note ? `. ${note}` : ''}`,
		options: [
			{
				displayName: 'Rule',
				name: 'rule',
				values: [
					{
						displayName: 'Field',
						name: 'field',
						type: 'options',
						options: [...fields].sort().map((field) => ({ name: field, value: field })),
						default: '',
					},
					{
						displayName: 'Direction',
						name: 'direction',
						type: 'options',
						options: [
							{ name: 'Ascending', value: 'asc' },
							{ name: 'Descending', value: 'desc' },
						],
						default: 'asc',
					},
				],
			},
		],
	};
}

/** `Sort` and `Dir` from the rules of `sort` (made by `sortProperty`), each field and direction one it offers. */
export function readSort(context: IExecuteFunctions, itemIndex: number, sort: INodeProperties): { Sort?: string; Dir?: string } {
	const rules = ((context.getNodeParameter('sort', itemIndex, {}) as IDataObject).rule as Array<{ field: unknown; direction: unknown }> | undefined) ?? [];
	if (rules.length === 0) return {};
	const [field, direction] = (sort.options?.[0] as { values: INodeProperties[] }).values;
	const checked = rules.map((rule) => ({
		field: checkedValue(context, itemIndex, field, rule.field, 'Sort > Field'),
		direction: checkedValue(context, itemIndex, direction, rule.direction ?? direction.default, 'Sort > Direction'),
	}));
	return { Sort: checked.map((rule) => rule.field).join(','), Dir: checked.map((rule) => rule.direction).join(',') };
}

/** IDs from a multi-options value or from an expression's comma-separated text or array. */
export function idsFrom(value: unknown): string[] {
	const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value === undefined || value === null ? [] : [value];
	return list.map((id) => (typeof id === 'string' ? id : typeof id === 'number' ? String(id) : shownValue(id)).trim()).filter(Boolean);
}
