import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths, type Query, type QueryValue } from '../../transport';
import { isRelativeDate, PTYPE_OPTIONS } from '../../shared/criteria';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { AUTOMATION_LEVEL_MAX, PAGE_LIMITS } from '../../shared/vocabulary';
import {
	checkedValue,
	entriesOf,
	fail,
	listLocator,
	readFields,
	readListId,
	returnAllProperties,
} from '../../shared/parameters';
import { pagedRead, filtersProperty, ownParameters, starOptions } from '../shapes';

const show = { resource: ['listItem'], operation: ['getMany'] };
const CONTACT_FILTERS = [
	'MostRecentCall',
	'MostRecentDirectMail',
	'MostRecentEmail',
	'MostRecentText',
	'MostRecentVoicemail',
];
const HAS_FILTERS: Array<[string, string, string]> = [
	['hasAnalysis', 'Has Analysis', 'the investment analysis was edited'],
	['hasDocs', 'Has Documents', 'documents in the transaction history were added or edited'],
	['hasNotes', 'Has Notes', 'notes were added'],
	['hasPhotos', 'Has Photos', 'photos were added'],
];

export const description: INodeProperties[] = [
	listLocator(show),
	...returnAllProperties(show),
	filtersProperty(show, [
		{
			displayName: 'Added Since',
			name: 'AddedSince',
			type: 'dateTime',
			default: '',
			description: 'Only properties added to the list after this date and time',
		},
		...HAS_FILTERS.map(([name, displayName, what]) => ({
			displayName,
			name,
			type: 'boolean' as const,
			default: true,
			description: `Whether ${what} (on) or not (off)`,
		})),
		{
			displayName: 'Interest Levels',
			name: 'InterestLevel',
			type: 'multiOptions',
			options: starOptions('Not Starred (With Saved Data)'),
			default: [],
		},
		{
			displayName: 'Last Transfer Date',
			name: 'LastTransferRecDate',
			type: 'string',
			default: '',
			placeholder: 'Last 365 Days',
			description:
				'A preset such as "Last 90 Days", a date M/D/YYYY, "from: M/D/YYYY to: M/D/YYYY", or "from: to: M/D/YYYY" for a last transfer on that date or before, which also returns properties never sold',
		},
		...CONTACT_FILTERS.map((name) => ({
			displayName: name.replace(/([a-z])([A-Z])/g, '$1 $2'),
			name,
			type: 'string' as const,
			default: '',
			placeholder: 'Last 30 Days',
			description:
				'When the latest such contact happened: a preset, a date or range as for Last Transfer Date, or None for never',
		})),
		{
			displayName: 'Property Types',
			name: 'PType',
			type: 'multiOptions',
			options: PTYPE_OPTIONS,
			default: [],
		},
		{
			displayName: 'Status Level Names or IDs',
			name: 'StatusLevel',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getStatusLevelFilters' },
			default: [],
			description:
				'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
	]),
	fieldsPicker('listItem', { show }, 'Each fieldset includes PropID.'),
	...outputProperties('property', show, false),
];

export const outputs = 'property';

// Last Transfer Date, or a Most Recent contact, which also takes None (never).
function dateFilter(context: IExecuteFunctions, itemIndex: number, name: string, value: unknown) {
	const none = name !== 'LastTransferRecDate';
	const text = String(value).trim();
	if (isRelativeDate(text) || (none && text === 'None')) return text;
	return fail(
		context,
		itemIndex,
		`${none ? name : 'Last Transfer Date'}: "${text}" is not a date the API takes`,
		`Use a preset such as "Last 30 Days", a date M/D/YYYY, or "from: M/D/YYYY to: M/D/YYYY" with either end left empty ("from: to: M/D/YYYY" for that date or before, which also takes properties with no date)${none ? ', or None' : ''}.`,
	);
}

/** One level of the Status Levels filter: the account names its levels, but a level is 1 to 9 (0, None, is no value to filter by). */
const STATUS_LEVEL: INodeProperties = {
	displayName: 'Filters > Status Level Names or IDs',
	name: 'StatusLevel',
	type: 'number',
	default: 1,
	typeOptions: { minValue: 1, maxValue: AUTOMATION_LEVEL_MAX.SetStatusLevel },
};

// A page of list items carries no total (docs/api.md); a whole list's TotalCount checks the read.
export const execute = pagedRead({
	pageSize: PAGE_LIMITS.listItems.maxLimit,
	read: (context, itemIndex) => {
		const listId = readListId(context, itemIndex);
		const filters = ownParameters(context, itemIndex, description).collection('filters');
		const qs: Query = {};
		for (const [name, value] of Object.entries(filters)) {
			if (name === 'LastTransferRecDate' || CONTACT_FILTERS.includes(name))
				qs[name] = dateFilter(context, itemIndex, name, value);
			else if (name === 'StatusLevel')
				qs[name] = entriesOf(value).map(
					(level) => checkedValue(context, itemIndex, STATUS_LEVEL, level) as number,
				);
			else qs[name] = value as QueryValue;
		}
		return {
			counted: { listId, count: 'TotalCount', filtered: Object.keys(qs).length > 0 },
			request: () => ({
				method: 'GET',
				path: paths.listItems(listId),
				qs: { ...qs, Fields: readFields(context, itemIndex, 'listItem') },
			}),
		};
	},
});
