import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest, paths, type ListRecord } from '../transport';
import { fieldNames, LIST_FIELDS } from '../shared/vocabulary';
import { triggerListLabel } from './listLabels';

async function listsNamed(
	context: ILoadOptionsFunctions,
	filter: string | undefined,
	fields: string,
	listType?: ListRecord['ListType'],
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
	});
	const needle = (filter ?? '').toLowerCase();
	return (response.results ?? []).filter(
		// The type is checked here too: a service that ignored the filter offers no other list.
		(list) =>
			(!listType || list.ListType === listType) &&
			(!needle || String(list.ListName).toLowerCase().includes(needle)),
	);
}

const listChoice = (list: ListRecord) => ({
	name: `${list.ListName} (${list.ListType ?? 'list'}, ${list.TotalCount ?? 0})`,
	value: String(list.ListID),
});

const PICKED_LIST_FIELDS = fieldNames(LIST_FIELDS, 'ListID', 'ListName', 'ListType', 'TotalCount');

const listsOfType = (listType?: ListRecord['ListType']) =>
	async function (this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		return {
			results: (await listsNamed(this, filter, PICKED_LIST_FIELDS, listType)).map(listChoice),
		};
	};

export const searchLists = listsOfType();
export const searchStaticLists = listsOfType('static');
export const searchImportLists = listsOfType('import');

export async function searchTriggerLists(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return {
		results: (
			await listsNamed(
				this,
				filter,
				fieldNames(LIST_FIELDS, 'ListID', 'ListName', 'ListType', 'TotalCount', 'isMonitored'),
			)
		).map((list) => ({
			name: triggerListLabel(list),
			value: String(list.ListID),
		})),
	};
}
