import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listEntries, shownValue } from '../ids';
import { parameter } from './parameter';

export function fail(
	context: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): never {
	throw new NodeOperationError(context.getNode(), message, { itemIndex, description });
}

type OptionValue = string | number | boolean;

function alternatives(values: OptionValue[]): string {
	const quoted = values.map((value) => JSON.stringify(value));
	return quoted.length < 2
		? quoted.join('')
		: `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

// Compared as text, so "3" from an expression is the option 3.
function optionOf(allowed: OptionValue[], value: unknown): OptionValue | undefined {
	if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
		return undefined;
	const text = String(value).trim();
	return allowed.find((option) => String(option) === text);
}

function numberRule(property: INodeProperties): string {
	const { minValue, maxValue, numberPrecision } = property.typeOptions ?? {};
	const kind = numberPrecision ? 'a number' : 'a whole number';
	if (minValue !== undefined && maxValue !== undefined)
		return `${kind} from ${minValue} to ${maxValue}`;
	if (minValue !== undefined) return `${kind}, ${minValue} or more`;
	if (maxValue !== undefined) return `${kind}, ${maxValue} or less`;
	return kind;
}

// Blank text between commas is no entry; a null is one, refused as any value not allowed.
export function entriesOf(value: unknown): unknown[] {
	if (value === undefined || value === null) return [value];
	const entries = listEntries(value);
	return typeof value === 'string' ? entries.filter((entry) => String(entry).trim()) : entries;
}

// n8n passes an expression's, a workflow's or an AI tool call's value on unchecked (docs/design.md).
export function checkedValue(
	context: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	value: unknown,
	label = property.displayName,
): unknown {
	// Options loaded from the account (status labels, lists) are not known here: the reader of such a field checks it.
	if (
		property.typeOptions?.loadOptionsMethod !== undefined ||
		property.typeOptions?.loadOptions !== undefined
	)
		return value;
	switch (property.type) {
		case 'options':
		case 'multiOptions': {
			const allowed = (property.options ?? []).flatMap((option) =>
				'value' in option ? [option.value as OptionValue] : [],
			);
			const single = property.type === 'options';
			const checked = (single ? [value] : entriesOf(value)).map((entry) => {
				const option = optionOf(allowed, entry);
				if (option === undefined)
					fail(
						context,
						itemIndex,
						`${label}: "${shownValue(entry)}" is not allowed`,
						`Use ${single ? '' : 'any of '}${alternatives(allowed)}.`,
					);
				return option;
			});
			return single ? checked[0] : checked;
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
				fail(
					context,
					itemIndex,
					`${label}: must be ${numberRule(property)}, got "${shownValue(value)}"`,
				);
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

// Text, milliseconds, a Date, or a luxon date of n8n's such as `$now.minus(...)`.
function isoDate(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
): string {
	const millis = (value as { toMillis?: unknown } | null)?.toMillis;
	const time =
		value instanceof Date
			? value.getTime()
			: typeof value === 'number'
				? value
				: typeof value === 'string' && value.trim() !== ''
					? Date.parse(value.trim())
					: typeof millis === 'function'
						? Number(millis.call(value))
						: NaN;
	const date = new Date(time);
	if (Number.isNaN(date.getTime()))
		fail(
			context,
			itemIndex,
			`${label}: "${shownValue(value)}" is not a date and time`,
			'Use one such as 2026-11-01 or 2026-11-01T08:30:00Z.',
		);
	return date.toISOString();
}

function flag(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
): boolean {
	if (typeof value !== 'boolean')
		fail(
			context,
			itemIndex,
			`${label}: must be on or off (true or false), got "${shownValue(value)}"`,
		);
	return value;
}

// An expression may give the text "false", which would otherwise count as on.
export function readFlag(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): boolean {
	const value = parameter(context, name, itemIndex, false) as unknown;
	return flag(context, itemIndex, value, label);
}

export function propertyNamed(description: INodeProperties[], name: string): INodeProperties {
	const property = description.find((candidate) => candidate.name === name);
	if (!property) throw new Error(`No property "${name}" in this operation's description`);
	return property;
}

export function readChoice<T extends OptionValue = string>(
	context: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
): T {
	const value = parameter(context, property.name, itemIndex, property.default) as unknown;
	return checkedValue(context, itemIndex, property, value) as T;
}

// A field left empty ('', or a list with nothing in it, such as "," from an expression) is left out.
export function readCollection(
	context: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
): IDataObject {
	const given = parameter(context, property.name, itemIndex, {}) as unknown;
	if (typeof given !== 'object' || given === null || Array.isArray(given)) {
		fail(
			context,
			itemIndex,
			`${property.displayName}: must be a set of fields, got "${shownValue(given)}"`,
		);
	}
	const fields: IDataObject = {};
	for (const [name, value] of Object.entries(given)) {
		if (
			value === '' ||
			value === undefined ||
			value === null ||
			(Array.isArray(value) && value.length === 0)
		)
			continue;
		const field = property.options?.find(
			(option): option is INodeProperties => 'type' in option && option.name === name,
		);
		const checked = field
			? checkedValue(
					context,
					itemIndex,
					field,
					value,
					`${property.displayName} > ${field.displayName}`,
				)
			: value;
		if (Array.isArray(checked) && checked.length === 0) continue;
		fields[name] = checked as IDataObject[string];
	}
	return fields;
}
