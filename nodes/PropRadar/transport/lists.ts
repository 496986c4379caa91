import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import type { NumberedId } from '../shared/ids';
import type { ApiContext } from './credential';
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

/** One list by ID, with `fields` only when given; undefined when the service has no such list. */
export async function readList(
	context: ApiContext,
	listId: NumberedId,
	{ fields, itemIndex }: { fields?: string; itemIndex?: number } = {},
): Promise<ListRecord | undefined> {
	const response = await apiRequest<{ results?: ListRecord[] }>(context, {
		method: 'GET',
		path: paths.list(listId),
		qs: fields === undefined ? undefined : { Fields: fields },
		itemIndex,
	});
	return response.results?.[0];
}
