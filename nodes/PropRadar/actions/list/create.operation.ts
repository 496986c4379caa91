import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths, readLists } from '../../transport';
import { CRITERIA_MODE, criteriaProperties } from '../../shared/criteria';
import {
	ADD_AS_PRIMARY_CONTACT,
	fail,
	readChoice,
	readCriteriaParameters,
	readFlag,
	readRequiredString,
	readText,
} from '../../shared/parameters';
import { fieldNames, LIST_FIELDS, LIST_NAME_MAX_CHARACTERS } from '../../shared/vocabulary';
import type { ListType } from '../../shared/vocabulary';
import { ownParameters, shownFor } from '../shapes';

const show = { resource: ['list'], operation: ['create'] };

// Counted in code points, so that no emoji is cut in half.
export function truncateListName(name: string): { name: string; notice?: string } {
	const characters = Array.from(name);
	if (characters.length <= LIST_NAME_MAX_CHARACTERS) return { name };
	return {
		name: characters.slice(0, LIST_NAME_MAX_CHARACTERS).join(''),
		notice: `List Name had ${characters.length} characters; PropRadar keeps the first ${LIST_NAME_MAX_CHARACTERS}.`,
	};
}

/** The import list's contact options (ImportContactOptions) among the options given, if any. */
export function contactOptions(options: IDataObject): IDataObject | undefined {
	const chosen: IDataObject = {};
	for (const key of ['add_as_primary_contact', 'set_as_primary_contact'])
		if (options[key] !== undefined) chosen[key] = options[key];
	return Object.keys(chosen).length > 0 ? chosen : undefined;
}

/** An import list's ImportType, in List > Create, Update and Get Many. */
export const IMPORT_TYPE: INodeProperties = {
	displayName: 'Import Type',
	name: 'ImportType',
	type: 'options',
	options: [
		{ name: 'Person', value: 'person' },
		{ name: 'Property', value: 'property' },
	],
	default: 'property',
};

export const description = shownFor(show, [
	{
		displayName: 'List Name',
		name: 'listName',
		type: 'string',
		required: true,
		default: '',
		description: 'Displayed name of the list. PropRadar keeps the first 50 characters.',
	},
	{
		displayName: 'If a List of This Name Exists',
		name: 'whenNameExists',
		type: 'options',
		options: [
			{
				name: 'Create Another',
				value: 'create',
				description: 'Always create a new list, even beside one of the same name',
			},
			{
				name: 'Use It',
				value: 'useExisting',
				description:
					'Use the list of the same name and type if there is one (the oldest, if several), and create one only if there is none: a workflow that runs again keeps one list',
			},
		],
		default: 'create',
		description:
			'What a run does when the account has a list of this name and type already. An existing list keeps its own criteria and settings.',
	},
	{
		displayName: 'List Type',
		name: 'listType',
		type: 'options',
		options: [
			{ name: 'Dynamic', value: 'dynamic', description: 'Membership follows criteria' },
			{ name: 'Import', value: 'import', description: 'Built by matching records you import' },
			{ name: 'Static', value: 'static', description: 'You add and remove properties' },
		],
		default: 'static',
	},
	...criteriaProperties({ ...show, listType: ['dynamic'] }),
	{
		displayName: 'Monitored',
		name: 'isMonitored',
		type: 'boolean',
		default: false,
		description:
			'Whether monitoring, insights and automations are on. A monitored dynamic list follows its criteria as data changes; an unmonitored one is refreshed when its items are read.',
	},
	{
		displayName: 'Import Source',
		name: 'importSource',
		type: 'options',
		options: [
			{ name: 'API (Needed for Import Records)', value: 'api' },
			{ name: 'File', value: 'file' },
			{ name: 'Zapier', value: 'zapier' },
		],
		default: 'api',
		displayOptions: { show: { ...show, listType: ['import'] } },
	},
	{
		displayName: 'Import Options',
		name: 'importOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { ...show, listType: ['import'] } },
		options: [
			ADD_AS_PRIMARY_CONTACT,
			{ ...IMPORT_TYPE, description: 'Whether matching focuses on the property or on the person' },
			{
				displayName: 'Match Threshold',
				name: 'ImportMatchThreshold',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100 },
				default: 80,
				description: 'Lowest match score (0-100) accepted as a match',
			},
			{
				displayName: 'Set as Primary Contact',
				name: 'set_as_primary_contact',
				type: 'boolean',
				default: false,
				description:
					'Whether an imported person found at the matched property but not primary becomes primary',
			},
		],
	},
	{
		displayName: 'Group Name',
		name: 'groupName',
		type: 'string',
		default: '',
		description: 'Name of the list group',
	},
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const own = ownParameters(this, itemIndex, description);
	const listName = truncateListName(readRequiredString(this, itemIndex, 'listName', 'List Name'));
	const listType = own.choice<ListType>('listType');
	const body: IDataObject = {
		ListName: listName.name,
		ListType: listType,
		isMonitored: readFlag(this, itemIndex, 'isMonitored', 'Monitored') ? 1 : 0,
	};
	const groupName = readText(this, itemIndex, 'groupName', 'Group Name');
	if (groupName) body.GroupName = groupName;
	if (listType === 'dynamic') {
		const criteria = readCriteriaParameters(this, itemIndex);
		if (criteria.length === 0)
			fail(this, itemIndex, 'Criteria: a dynamic list needs at least one criterion');
		body.Criteria = criteria as unknown as IDataObject[];
	} else if (readChoice(this, itemIndex, CRITERIA_MODE) === 'json') {
		fail(
			this,
			itemIndex,
			`Criteria: a ${listType} list takes no criteria`,
			listType === 'static'
				? 'Create the static list without criteria, then add properties with List Item > Add.'
				: 'Create the import list without criteria, then add records with Import Record > Import.',
		);
	}
	if (listType === 'import') {
		body.ImportSource = own.choice('importSource');
		const options = own.collection('importOptions');
		for (const key of ['ImportType', 'ImportMatchThreshold'])
			if (options[key] !== undefined) body[key] = options[key];
		const contact = contactOptions(options);
		if (contact) body.ImportContactOptions = contact;
	}
	const useExisting = own.choice('whenNameExists') === 'useExisting';
	if (useExisting) {
		// The oldest list of this name and type, given as a created one is, with `created: false`.
		const fields = fieldNames(LIST_FIELDS, 'ListID', 'ListName', 'ListType', 'TotalCount');
		const named = (await readLists(this, fields, listType, itemIndex))
			.filter((list) => list.ListName === listName.name)
			.sort((a, b) => Number(a.ListID) - Number(b.ListID));
		if (named.length > 0) {
			const { ListID, TotalCount, ListName } = named[0];
			const existing: IDataObject = {
				ListID,
				TotalCount,
				ListName,
				ListType: listType,
				created: false,
			};
			if (named.length > 1)
				existing.notice = `${named.length} ${listType} lists are named "${ListName}" (IDs ${named.map((list) => list.ListID).join(', ')}); this is the oldest.`;
			return [existing];
		}
	}
	const response = await apiRequest(this, { method: 'POST', path: paths.lists(), body, itemIndex });
	const record: IDataObject = {
		...response.results?.[0],
		ListName: body.ListName,
		ListType: listType,
	};
	if (listName.notice) record.notice = listName.notice;
	if (useExisting) record.created = true;
	return [record];
}
