import type {
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { readList, readLists, type ListRecord } from '../transport';
import { parseNumberedId } from './ids';
import { fieldNames, LIST_FIELDS } from './vocabulary';

async function listsNamed(
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

const LABEL_FIELDS = `${PICKED_LIST_FIELDS},${fieldNames(LIST_FIELDS, 'isMonitored')}`;

// Monitoring is shown because activation refuses an unmonitored list.
function triggerListLabel(list: ListRecord): string {
	const monitoring =
		Number(list.isMonitored) === 1
			? 'monitored'
			: 'not monitored: turn monitoring on before activating';
	return `${list.ListName} (${list.ListType ?? 'list'}, ${list.TotalCount ?? 0}) · ${monitoring}`;
}

export async function searchTriggerLists(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return {
		results: (await listsNamed(this, filter, LABEL_FIELDS)).map((list) => ({
			name: triggerListLabel(list),
			value: String(list.ListID),
		})),
	};
}

// n8n's picker names the list only in "From List" mode; this line's value '' is the default: none saved.
export async function getTriggerListStatus(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const line = (name: string) => [{ name, value: '' }];
	const chosen = this.getNodeParameter('listId', undefined, { extractValue: true }) as unknown;
	if (chosen === undefined || chosen === null || chosen === '') return line('No list chosen yet');
	if (typeof chosen === 'string' && chosen.startsWith('='))
		return line('The list comes from an expression: shown when the workflow runs');
	const parsed = parseNumberedId(typeof chosen === 'string' ? chosen.trim() : chosen, 'a list ID');
	if ('problem' in parsed) return line(`"${String(chosen)}" ${parsed.problem}`);
	let list: ListRecord | undefined;
	try {
		list = await readList(this, parsed.id, { fields: LABEL_FIELDS });
	} catch (error) {
		return line(`List ${String(parsed.id)} could not be read: ${(error as Error).message}`);
	}
	return line(
		list
			? `${triggerListLabel(list)} (list ${String(parsed.id)})`
			: `No list ${String(parsed.id)} in this account`,
	);
}
