import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { readLists, type ListRecord } from '../transport';
import { fieldNames, LIST_FIELDS } from './vocabulary';

export async function listsNamed(
	context: ILoadOptionsFunctions,
	filter: string | undefined,
	fields: string,
	listType?: ListRecord['ListType'],
): Promise<ListRecord[]> {
	const needle = (filter ?? '').toLowerCase();
	return (await readLists(context, fields, listType)).filter(
		(list) => !needle || String(list.ListName).toLowerCase().includes(needle),
	);
}

// The ID tells apart lists of the same name.
const listChoice = (list: ListRecord) => ({
	name: `${list.ListName} (${list.ListType ?? 'list'}, ${list.TotalCount ?? 0}, ID ${list.ListID})`,
	value: String(list.ListID),
});

const PICKED_LIST_FIELDS = fieldNames(LIST_FIELDS, 'ListID', 'ListName', 'ListType', 'TotalCount');

export const listsOfType = (listType?: ListRecord['ListType']) =>
	async function (this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		return {
			results: (await listsNamed(this, filter, PICKED_LIST_FIELDS, listType)).map(listChoice),
		};
	};

export const searchLists = listsOfType();
