import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import { deletedRecord } from '../deleted';
import { listLocator, propIdProperty, readListId, readPropId } from '../../shared/parameters';

const show = { resource: ['listItem'], operation: ['remove'] };

export const description: INodeProperties[] = [listLocator(show), propIdProperty(show)];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex);
	const propId = readPropId(this, itemIndex);
	const response = await apiRequest(this, {
		method: 'DELETE',
		path: paths.listItem(listId, propId),
		itemIndex,
	});
	return [deletedRecord({ ListID: listId, PropID: propId }, response)];
}
