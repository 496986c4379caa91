import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { listLocator, readFields, readListId } from '../../shared/parameters';

const show = { resource: ['list'], operation: ['get'] };

export const description: INodeProperties[] = [
	listLocator(show),
	fieldsPicker('list', { show }),
	...outputProperties('list', show, false),
];

export const outputs = 'list';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex);
	const Fields = readFields(this, itemIndex, 'list');
	const response = await apiRequest(this, {
		method: 'GET',
		path: paths.list(listId),
		qs: { Fields },
		itemIndex,
	});
	return response.results ?? [];
}
