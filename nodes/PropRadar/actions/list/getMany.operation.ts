import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { readFields, readLimit, returnAllProperties, sortProperty } from '../../shared/parameters';
import { IMPORT_TYPE } from './create.operation';
import { filtersProperty, ownParameters } from '../shapes';

const show = { resource: ['list'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	...returnAllProperties(show),
	filtersProperty(show, [
		{ displayName: 'Display Order', name: 'DisplayOrder', type: 'number', default: 0 },
		{ displayName: 'Group Name', name: 'GroupName', type: 'string', default: '' },
		IMPORT_TYPE,
		{
			displayName: 'List Type',
			name: 'ListType',
			type: 'options',
			options: [
				{ name: 'Dynamic', value: 'dynamic' },
				{ name: 'Import', value: 'import' },
				{ name: 'Static', value: 'static' },
			],
			default: 'static',
		},
		{
			displayName: 'Monitored',
			name: 'isMonitored',
			type: 'boolean',
			default: true,
			description: 'Whether to return only monitored (on) or only unmonitored (off) lists',
		},
	]),
	sortProperty(
		show,
		['ListName', 'TotalCount', 'DisplayOrder'],
		'Display Order is always ascending; without a rule, lists come by count, then by name.',
	),
	fieldsPicker('list', { show }),
	...outputProperties('list', show, false),
];

export const outputs = 'list';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const own = ownParameters(this, itemIndex, description);
	const filters = own.collection('filters');
	const limit = readLimit(this, itemIndex);
	const response = await apiRequest(this, {
		method: 'GET',
		path: paths.lists(),
		qs: {
			...(filters as Record<string, string | number | boolean>),
			...own.sort(),
			Fields: readFields(this, itemIndex, 'list'),
			Limit: limit,
		},
		itemIndex,
	});
	const lists = response.results ?? [];
	return limit === undefined ? lists : lists.slice(0, limit);
}
