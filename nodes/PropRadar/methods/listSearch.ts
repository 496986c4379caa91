import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest, paths, type ListRecord } from '../transport';
import { fieldNames, LIST_FIELDS } from '../shared/vocabulary';
import { triggerListLabel } from './listLabels';

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
		results: (await listsNamed(this, filter, fieldNames(LIST_FIELDS, 'ListID', 'ListName', 'ListType', 'TotalCount'))).map((list) => ({
			name: `${list.ListName} (${list.ListType ?? 'list'}, ${list.TotalCount ?? 0})`,
			value: String(list.ListID),
		})),
	};
}

/** Lists for the trigger's "From List" mode, filtered by name, each saying whether it is monitored. */
export async function searchTriggerLists(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return {
		results: (await listsNamed(this, filter, fieldNames(LIST_FIELDS, 'ListID', 'ListName', 'ListType', 'TotalCount', 'isMonitored'))).map((list) => ({
			name: triggerListLabel(list),
			value: String(list.ListID),
		})),
	};
}
