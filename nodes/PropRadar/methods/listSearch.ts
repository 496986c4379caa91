import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest, paths, type ListRecord } from '../transport';

/** The account's lists whose name holds `filter` (any case), sorted by name. */
async function listsNamed(context: ILoadOptionsFunctions, filter: string | undefined, fields: string): Promise<ListRecord[]> {
	const response = await apiRequest<{ results?: ListRecord[] }>(context, {
		method: 'GET',
		path: paths.lists(),
		qs: { Fields: fields, Sort: 'ListName', Dir: 'asc' },
	});
	const needle = (filter ?? '').toLowerCase();
	return (response.results ?? []).filter((list) => !needle || String(list.ListName).toLowerCase().includes(needle));
}

/** Lists for the "From List" mode of every list picker, filtered by name. */
export async function searchLists(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return {
		results: (await listsNamed(this, filter, 'ListID,ListName,ListType,TotalCount')).map((list) => ({
			name: `${list.ListName} (${list.ListType ?? 'list'}, ${list.TotalCount ?? 0})`,
			value: String(list.ListID),
		})),
	};
}

/**
 * How the trigger shows a list: its name, kind and size, and whether it is monitored, since only a
 * monitored list's automation fires and activation refuses any other.
 */
export function triggerListLabel(list: ListRecord): string {
	const monitoring = Number(list.isMonitored) === 1 ? 'monitored' : 'not monitored: turn monitoring on before activating';
	return `${list.ListName} (${list.ListType ?? 'list'}, ${list.TotalCount ?? 0}) · ${monitoring}`;
}

/** Lists for the trigger's "From List" mode, filtered by name, each saying whether it is monitored. */
export async function searchTriggerLists(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return {
		results: (await listsNamed(this, filter, 'ListID,ListName,ListType,TotalCount,isMonitored')).map((list) => ({
			name: triggerListLabel(list),
			value: String(list.ListID),
		})),
	};
}
