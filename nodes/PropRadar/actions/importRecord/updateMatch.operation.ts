import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import {
	fail,
	listLocator,
	parameter,
	readListId,
	readPersonKey,
	readPositiveInteger,
	readPropId,
} from '../../shared/parameters';
import { freeRequest, shownFor } from '../shapes';

const show = { resource: ['importRecord'], operation: ['updateMatch'] };

export const importItemIdProperty = (operationShow: Record<string, string[]>): INodeProperties => ({
	displayName: 'Import Item ID',
	name: 'importItemId',
	type: 'number',
	required: true,
	default: 0,
	description: 'The ListImportItemID of the imported record',
	displayOptions: { show: operationShow },
});

export const description = shownFor(show, [
	listLocator(show, 'Import List', 'listId', 'searchImportLists'),
	importItemIdProperty(show),
	{
		displayName: 'Property ID',
		name: 'matchPropId',
		type: 'string',
		default: '',
		description: 'The PropID the record really is (leave empty to keep the property)',
	},
	{
		displayName: 'Person Key',
		name: 'matchPersonKey',
		type: 'string',
		default: '',
		description:
			'The PersonKey of the person at that property the record really is (leave empty to keep the person)',
	},
]);

export const execute = freeRequest((context, itemIndex) => {
	const listId = readListId(context, itemIndex, 'listId', 'Import List');
	const itemId = readPositiveInteger(context, itemIndex, 'importItemId', 'Import Item ID');
	const body: IDataObject = {};
	const given = (name: string) =>
		String(parameter(context, name, itemIndex, '') ?? '').trim() !== '';
	if (given('matchPropId')) body.PropID = readPropId(context, itemIndex, 'matchPropId');
	if (given('matchPersonKey')) body.PersonKey = readPersonKey(context, itemIndex, 'matchPersonKey');
	if (!body.PropID && !body.PersonKey)
		fail(context, itemIndex, 'Property ID or Person Key: give at least one to correct the match');
	return { method: 'PATCH', path: paths.importItem(listId, itemId), body, repeatable: true };
});
