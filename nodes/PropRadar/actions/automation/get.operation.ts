import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import { listLocator, readListId } from '../../shared/parameters';

const show = { resource: ['automation'], operation: ['get'] };

export const description: INodeProperties[] = [listLocator(show)];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex);
	const response = await apiRequest(this, {
		method: 'GET',
		path: paths.automation(listId),
		itemIndex,
	});
	return (response.results ?? []).map((automation) => ({ ListID: listId, ...automation }));
}
