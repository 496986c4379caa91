import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../transport';
import { CriteriaError, readCriteria, type Criterion } from './criteria';
import { toFieldsParam, type FieldsChoice, type FieldScopeName } from './fieldsets';

/**
 * Parameters several operations share, and the readers that check them before anything is sent:
 * each bad value is refused with an error naming the field and what it allows.
 */
export function listLocator(show: IDisplayOptions['show'], displayName = 'List', name = 'listId'): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: { show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchLists', searchable: true },
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

export function propIdProperty(show: IDisplayOptions['show']): INodeProperties {
	return {
		displayName: 'Property ID',
		name: 'propId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'P000123',
		description: 'The PropID of the property',
		displayOptions: { show },
	};
}

export function personKeyProperty(show: IDisplayOptions['show']): INodeProperties {
	return {
		displayName: 'Person Key',
		name: 'personKey',
		type: 'string',
		required: true,
		default: '',
		description: 'The PersonKey of an owner, from Person > Get Owners',
		displayOptions: { show },
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

export function readListId(context: IExecuteFunctions, itemIndex: number, name = 'listId', label = 'List'): number {
	const value = context.getNodeParameter(name, itemIndex, undefined, { extractValue: true }) as unknown;
	const text = String(value ?? '').trim();
	if (!/^\d+$/.test(text) || Number(text) <= 0) {
		fail(context, itemIndex, `${label}: "${text}" is not a list ID; a list ID is a positive whole number`);
	}
	return Number(text);
}

export function readRequiredString(context: IExecuteFunctions, itemIndex: number, name: string, label: string): string {
	const value = String(context.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!value) fail(context, itemIndex, `${label} is required`);
	return value;
}

export function readPositiveInteger(context: IExecuteFunctions, itemIndex: number, name: string, label: string): number {
	const value = context.getNodeParameter(name, itemIndex) as unknown;
	const number = typeof value === 'number' ? value : Number(String(value ?? '').trim());
	if (!Number.isInteger(number) || number <= 0) fail(context, itemIndex, `${label}: must be a positive whole number, got "${String(value)}"`);
	return number;
}

/** The `Fields` query value of the item's picker; undefined when nothing was chosen. */
export function readFields(context: IExecuteFunctions, itemIndex: number, scope: FieldScopeName): string | undefined {
	const choice = context.getNodeParameter('fields', itemIndex, {}) as FieldsChoice;
	try {
		return toFieldsParam(scope, choice);
	} catch (error) {
		fail(context, itemIndex, (error as Error).message);
	}
}

export function readCriteriaParameters(context: IExecuteFunctions, itemIndex: number): Criterion[] {
	const mode = context.getNodeParameter('criteriaMode', itemIndex, 'builder') as string;
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
	if (context.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	return context.getNodeParameter('limit', itemIndex, 50) as number;
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
		displayOptions: { show },
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

export function readSort(context: IExecuteFunctions, itemIndex: number): { Sort?: string; Dir?: string } {
	const rules = ((context.getNodeParameter('sort', itemIndex, {}) as IDataObject).rule as Array<{ field: string; direction: string }> | undefined) ?? [];
	if (rules.length === 0) return {};
	return { Sort: rules.map((rule) => rule.field).join(','), Dir: rules.map((rule) => rule.direction).join(',') };
}

/** IDs from a multi-options value or from an expression's comma-separated text or array. */
export function idsFrom(value: unknown): string[] {
	const list = Array.isArray(value) ? value : String(value ?? '').split(',');
	return list.map((id) => String(id).trim()).filter(Boolean);
}
