import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import { paths } from './paths';
import { apiRequest } from './request';
import type { ListRecord } from './types';

/** The account's lists, sorted by name, of one type when `listType` is given (checked here too: a service that ignored the filter gives no other list). */
export async function readLists(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	fields: string,
	listType?: ListRecord['ListType'],
	itemIndex?: number,
): Promise<ListRecord[]> {
	const response = await apiRequest<{ results?: ListRecord[] }>(context, {
		method: 'GET',
		path: paths.lists(),
		qs: {
			Fields: fields,
			Sort: 'ListName',
			Dir: 'asc',
			...(listType ? { ListType: listType } : {}),
		},
		itemIndex,
	});
	return (response.results ?? []).filter((list) => !listType || list.ListType === listType);
}
