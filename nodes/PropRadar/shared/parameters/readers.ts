import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CRITERIA_MODE, CriteriaError, readCriteria, type Criterion } from '../criteria';
import { toFieldsParam, type FieldsChoice } from '../fieldsets';
import { listEntries, parseNumberedId, shownValue, type NumberedId } from '../ids';
import type { FieldScopeName } from '../vocabulary';
import { checkedValue, fail, readChoice, readFlag } from './checked';
import { parameter } from './parameter';

function readNumberedId(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
	what: string,
): NumberedId {
	const parsed = parseNumberedId(value, what);
	if ('problem' in parsed) {
		fail(
			context,
			itemIndex,
			`${label}: "${shownValue(typeof value === 'string' ? value.trim() : value)}" ${parsed.problem}`,
		);
	}
	return parsed.id;
}

export function readListId(
	context: IExecuteFunctions,
	itemIndex: number,
	name = 'listId',
	label = 'List',
): NumberedId {
	const value = parameter(context, name, itemIndex, undefined, {
		extractValue: true,
	}) as unknown;
	return readNumberedId(context, itemIndex, value ?? '', label, 'a list ID');
}

export function readTriggerListId(context: IHookFunctions | IPollFunctions): number {
	const raw = String(
		context.getNodeParameter('listId', undefined, { extractValue: true }) ?? '',
	).trim();
	// The trigger's list ID is a number: one beyond 2^53 is refused as well.
	const parsed = parseNumberedId(raw, 'a list ID');
	if ('problem' in parsed || typeof parsed.id !== 'number')
		throw new NodeOperationError(
			context.getNode(),
			`List: "${raw}" is not a list ID; a list ID is a positive whole number`,
		);
	return parsed.id;
}

export function readListIds(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): NumberedId[] {
	return listEntries(parameter(context, name, itemIndex, []))
		.filter((entry) => !(typeof entry === 'string' && entry.trim() === ''))
		.map((entry) => readNumberedId(context, itemIndex, entry, label, 'a list ID'));
}

export function readText(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
	{ secret = false } = {},
): string {
	const value = parameter(context, name, itemIndex, '') as unknown;
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	const kind = Array.isArray(value)
		? 'a list'
		: typeof value === 'object'
			? 'an object'
			: `a ${typeof value}`;
	fail(context, itemIndex, `${label}: must be text, got ${secret ? kind : shownValue(value)}`);
}

export function readRequiredString(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string {
	const value = readText(context, itemIndex, name, label);
	if (!value) fail(context, itemIndex, `${label} is required`);
	return value;
}

export function readPositiveInteger(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): NumberedId {
	const value = parameter(context, name, itemIndex) as unknown;
	return readNumberedId(context, itemIndex, value, label, 'an ID');
}

export function readFields(
	context: IExecuteFunctions,
	itemIndex: number,
	scope: FieldScopeName,
): string | undefined {
	const choice = parameter(context, 'fields', itemIndex, {}) as FieldsChoice;
	try {
		return toFieldsParam(scope, choice);
	} catch (error) {
		fail(context, itemIndex, (error as Error).message);
	}
}

export function readCriteriaParameters(context: IExecuteFunctions, itemIndex: number): Criterion[] {
	const mode = readChoice<'builder' | 'json'>(context, itemIndex, CRITERIA_MODE);
	try {
		return readCriteria({
			mode,
			rows:
				mode === 'builder'
					? (parameter(context, 'criteria', itemIndex, {}) as IDataObject)
					: undefined,
			json: mode === 'json' ? parameter(context, 'criteriaJson', itemIndex) : undefined,
		});
	} catch (error) {
		if (error instanceof CriteriaError) fail(context, itemIndex, error.message);
		// An expression n8n could not evaluate: its error, for this item.
		throw error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	}
}

export function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (readFlag(context, itemIndex, 'returnAll', 'Return All')) return undefined;
	const value = parameter(context, 'limit', itemIndex, 50) as unknown;
	const limit = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
	if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
		fail(
			context,
			itemIndex,
			`Limit: must be a whole number from 1 up, got "${typeof value === 'number' ? String(value) : shownValue(value)}"`,
		);
	}
	return limit;
}

export function readSort(
	context: IExecuteFunctions,
	itemIndex: number,
	sort: INodeProperties,
): { Sort?: string; Dir?: string } {
	const rules =
		((parameter(context, 'sort', itemIndex, {}) as IDataObject).rule as
			Array<{ field: unknown; direction: unknown }> | undefined) ?? [];
	if (rules.length === 0) return {};
	const [field, direction] = (sort.options?.[0] as { values: INodeProperties[] }).values;
	const checked = rules.map((rule) => ({
		field: checkedValue(context, itemIndex, field, rule.field, 'Sort > Field'),
		direction: checkedValue(
			context,
			itemIndex,
			direction,
			rule.direction ?? direction.default,
			'Sort > Direction',
		),
	}));
	return {
		Sort: checked.map((rule) => rule.field).join(','),
		Dir: checked.map((rule) => rule.direction).join(','),
	};
}

export function idsFrom(value: unknown): string[] {
	return listEntries(value)
		.map((id) =>
			(typeof id === 'string' ? id : typeof id === 'number' ? String(id) : shownValue(id)).trim(),
		)
		.filter(Boolean);
}
