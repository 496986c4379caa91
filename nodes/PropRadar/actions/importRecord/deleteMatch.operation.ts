import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import { deletedRecord } from '../deleted';
import { listLocator, readListId, readPositiveInteger } from '../../shared/parameters';
import { importItemIdProperty } from './updateMatch.operation';

const show = { resource: ['importRecord'], operation: ['deleteMatch'] };

export const description: INodeProperties[] = [
	listLocator(show, 'Import List', 'listId', 'searchImportLists'),
	importItemIdProperty(show),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex, 'listId', 'Import List');
	const itemId = readPositiveInteger(this, itemIndex, 'importItemId', 'Import Item ID');
	const response = await apiRequest(this, {
		method: 'DELETE',
		path: paths.importItem(listId, itemId),
		itemIndex,
	});
	return [deletedRecord({ ListID: listId, ListImportItemID: itemId }, response)];
}
