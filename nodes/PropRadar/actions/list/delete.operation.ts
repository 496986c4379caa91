import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import { deletedRecord } from '../deleted';
import { listLocator, readListId } from '../../shared/parameters';

const show = { resource: ['list'], operation: ['delete'] };

export const description: INodeProperties[] = [listLocator(show)];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex);
	const response = await apiRequest(this, {
		method: 'DELETE',
		path: paths.list(listId),
		itemIndex,
	});
	return [deletedRecord({ ListID: listId }, response)];
}
