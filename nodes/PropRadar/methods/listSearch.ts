import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest, paths, type ListRecord } from '../transport';

/** Lists for the "From List" mode of every list picker, filtered by name. */
export async function searchLists(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const response = await apiRequest<{ results?: ListRecord[] }>(this, {
		method: 'GET',
		path: paths.lists(),
		qs: { Fields: 'ListID,ListName,ListType,TotalCount', Sort: 'ListName', Dir: 'asc' },
	});
	const needle = (filter ?? '').toLowerCase();
	return {
		results: (response.results ?? [])
			.filter((list) => !needle || String(list.ListName).toLowerCase().includes(needle))
			.map((list) => ({
				name: `${list.ListName} (${list.ListType ?? 'list'}, ${list.TotalCount ?? 0})`,
				value: String(list.ListID),
			})),
	};
}
