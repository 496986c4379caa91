import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	keyProblem,
	keyText,
	listEntries,
	PERSON_KEY_RULE,
	PROP_ID_RULE,
	shownValue,
} from '../ids';
import { fail } from './checked';
import { parameter } from './parameter';

// `field`: the input field an empty parameter stands for; `source`: an operation whose items carry it.
interface KeyKind {
	label: string;
	name: string;
	field: string;
	rule: string;
	source: string;
	placeholder: string;
	about: string;
}

const PROP_ID: KeyKind = {
	label: 'Property ID',
	name: 'propId',
	field: 'PropID',
	rule: PROP_ID_RULE,
	source: 'Property > Search',
	placeholder: 'P000123',
	about: 'The PropID of the property',
};
const PERSON_KEY: KeyKind = {
	label: 'Person Key',
	name: 'personKey',
	field: 'PersonKey',
	rule: PERSON_KEY_RULE,
	source: 'Person > Get Owners',
	placeholder: 'K000123A',
	about: 'The PersonKey of an owner, from Person > Get Owners',
};

function keyProperty(kind: KeyKind, show: IDisplayOptions['show']): INodeProperties {
	return {
		displayName: kind.label,
		name: kind.name,
		type: 'string',
		// Empty: the input item's key, what operations such as the kind's `source` give.
		default: '',
		placeholder: kind.placeholder,
		description: `${kind.about}. Leave empty to use the input item's ${kind.field}.`,
		...(show ? { displayOptions: { show } } : {}),
	};
}

export const propIdProperty = (show: IDisplayOptions['show']) => keyProperty(PROP_ID, show);
export const personKeyProperty = (show: IDisplayOptions['show']) => keyProperty(PERSON_KEY, show);

// Left empty, the input item's own field, read directly: no expression per item (docs/performance.md).
function keyValue(context: IExecuteFunctions, itemIndex: number, name: string, kind: KeyKind) {
	// n8n's own check of a text parameter only looks it up in the description; the key is checked here.
	const value = parameter(context, name, itemIndex, '', { skipValidation: true }) as unknown;
	if (value !== undefined && value !== null && value !== '') return value;
	const item = context.getInputData()[itemIndex]?.json ?? {};
	if (Object.hasOwn(item, kind.field)) return item[kind.field] ?? '';
	fail(
		context,
		itemIndex,
		`${kind.label} is empty and the input item has no ${kind.field}`,
		`Left empty, ${kind.label} is the input item's ${kind.field}, and the item at index ${itemIndex} has none (an item from a Manual Trigger has none). Run this node after one that gives ${kind.field}, such as ${kind.source}, or enter the key itself.`,
	);
}

function checkedKey(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	kind: KeyKind,
): string {
	const text = keyText(value);
	const problem =
		text === undefined
			? `is a ${Array.isArray(value) ? 'list' : typeof value}, not text`
			: keyProblem(text);
	if (!problem) return text!;
	fail(
		context,
		itemIndex,
		`${kind.label}: "${shownValue(text ?? value)}" ${problem}; ${kind.rule}`,
	);
}

// Import Record > Update Match names its own Property ID parameter.
export const readPropId = (context: IExecuteFunctions, itemIndex: number, name = 'propId') =>
	checkedKey(context, itemIndex, keyValue(context, itemIndex, name, PROP_ID), PROP_ID);
export const readPersonKey = (context: IExecuteFunctions, itemIndex: number, name = 'personKey') =>
	checkedKey(context, itemIndex, keyValue(context, itemIndex, name, PERSON_KEY), PERSON_KEY);

// List Item > Add's Property IDs: one PropID or several; left empty, the input item's PropID.
export function readPropIds(context: IExecuteFunctions, itemIndex: number): string[] {
	const kind = { ...PROP_ID, label: 'Property IDs' };
	const value = keyValue(context, itemIndex, 'propIds', kind);
	// A list's entries may be comma-separated PropIDs too; empty entries are skipped.
	return listEntries(value)
		.flatMap((entry) => (typeof entry === 'string' ? entry.split(',') : [entry]))
		.filter((entry) => entry !== undefined && entry !== null && keyText(entry) !== '')
		.map((entry) => checkedKey(context, itemIndex, entry, kind));
}
