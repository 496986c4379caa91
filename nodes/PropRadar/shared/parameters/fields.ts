import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

export const ADD_AS_PRIMARY_CONTACT: INodeProperties = {
	displayName: 'Add as Primary Contact',
	name: 'add_as_primary_contact',
	type: 'boolean',
	default: false,
	description:
		'Whether an imported person not found at the matched property is added as its primary contact (import lists only)',
};

export function listLocator(
	show: IDisplayOptions['show'],
	displayName = 'List',
	name = 'listId',
	searchListMethod = 'searchLists',
): INodeProperties {
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
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\d+$', errorMessage: 'A list ID is a whole number' },
					},
				],
			},
		],
	};
}

export function staticListLocator(show: IDisplayOptions['show']): INodeProperties {
	return {
		...listLocator(show, 'Static List', 'listId', 'searchStaticLists'),
		description: 'Items can be added to static lists only: From List offers those',
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

export function sortProperty(
	show: IDisplayOptions['show'],
	fields: string[],
	note = '',
): INodeProperties {
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

export function vocabularyOptions(values: readonly string[]): INodePropertyOptions[] {
	return [...values]
		.sort()
		.map((value) => ({ name: `${value.charAt(0).toUpperCase()}${value.slice(1)}`, value }));
}
