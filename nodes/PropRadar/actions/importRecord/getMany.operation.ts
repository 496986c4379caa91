import { paths } from '../../transport';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { PAGE_LIMITS, PERSON_STATUSES, PROPERTY_STATUSES } from '../../shared/vocabulary';
import {
	listLocator,
	readFields,
	readListId,
	returnAllProperties,
	sortProperty,
} from '../../shared/parameters';
import { pagedRead, filtersProperty, ownParameters } from '../shapes';

const show = { resource: ['importRecord'], operation: ['getMany'] };

export const description = [
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

// A page of import items carries no total; a whole list's TotalImportItems checks the read.
export const execute = pagedRead({
	pageSize: PAGE_LIMITS.importItems.maxLimit,
	read: (context, itemIndex) => {
		const listId = readListId(context, itemIndex, 'listId', 'Import List');
		const own = ownParameters(context, itemIndex, description);
		const filters = own.collection('filters');
		return {
			counted: { listId, count: 'TotalImportItems', filtered: Object.keys(filters).length > 0 },
			request: () => ({
				method: 'GET',
				path: paths.importItems(listId),
				qs: {
					MatchScore: filters.MatchScore as number | undefined,
					PropertyStatus: filters.PropertyStatus as string[] | undefined,
					PersonStatus: filters.PersonStatus as string[] | undefined,
					Fields: readFields(context, itemIndex, 'importItem'),
					...own.sort(),
				},
			}),
		};
	},
});
