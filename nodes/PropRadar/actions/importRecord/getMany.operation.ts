import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { collectPages, listCount, paths } from '../../transport';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { PAGE_LIMITS, PERSON_STATUSES, PROPERTY_STATUSES } from '../../shared/vocabulary';
import {
	listLocator,
	propertyNamed,
	readCollection,
	readFields,
	readLimit,
	readListId,
	readSort,
	returnAllProperties,
	sortProperty,
} from '../../shared/parameters';
import { filtersProperty } from '../descriptions';

const show = { resource: ['importRecord'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	listLocator(show, 'Import List', 'listId', 'searchImportLists'),
	...returnAllProperties(show),
	filtersProperty(show, [
		{
			displayName: 'Minimum Match Score',
			name: 'MatchScore',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 100 },
			default: 80,
		},
		{
			displayName: 'Person Status',
			name: 'PersonStatus',
			type: 'multiOptions',
			options: [...PERSON_STATUSES].sort().map((status) => ({ name: status, value: status })),
			default: [],
		},
		{
			displayName: 'Property Status',
			name: 'PropertyStatus',
			type: 'multiOptions',
			options: [...PROPERTY_STATUSES].sort().map((status) => ({ name: status, value: status })),
			default: [],
		},
	]),
	sortProperty(show, ['ListImportItemID', 'MatchScore', 'PropertyStatus', 'PersonStatus']),
	fieldsPicker('importItem', { show }),
	...outputProperties('importItem', show, false),
];

export const outputs = 'importItem';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex, 'listId', 'Import List');
	const filters = readCollection(this, itemIndex, propertyNamed(description, 'filters'));
	const limit = readLimit(this, itemIndex);
	// A page of import items carries no total; a whole list's TotalImportItems checks the read.
	const expected =
		limit === undefined && Object.keys(filters).length === 0
			? listCount(this, listId, 'TotalImportItems', itemIndex)
			: undefined;
	const { records } = await collectPages(
		this,
		{
			method: 'GET',
			path: paths.importItems(listId),
			qs: {
				MatchScore: filters.MatchScore as number | undefined,
				PropertyStatus: filters.PropertyStatus as string[] | undefined,
				PersonStatus: filters.PersonStatus as string[] | undefined,
				Fields: readFields(this, itemIndex, 'importItem'),
				...readSort(this, itemIndex, propertyNamed(description, 'sort')),
			},
			itemIndex,
		},
		{ pageSize: PAGE_LIMITS.importItems.maxLimit, limit, expected },
	);
	return records;
}
