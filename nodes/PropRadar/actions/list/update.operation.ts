import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths, readList } from '../../transport';
import { shownValue } from '../../shared/ids';
import { ADD_AS_PRIMARY_CONTACT, fail, listLocator, readListId } from '../../shared/parameters';
import { fieldNames, LIST_FIELDS } from '../../shared/vocabulary';
import { ownParameters } from '../shapes';
import { contactOptions, IMPORT_TYPE, truncateListName } from './create.operation';

const show = { resource: ['list'], operation: ['update'] };

export const description: INodeProperties[] = [
	listLocator(show),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		description: 'Criteria cannot be changed after creation',
		options: [
			ADD_AS_PRIMARY_CONTACT,
			{
				displayName: 'Display Order',
				name: 'DisplayOrder',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
			},
			{
				displayName: 'Import Match Threshold',
				name: 'ImportMatchThreshold',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100 },
				default: 80,
			},
			IMPORT_TYPE,
			{
				displayName: 'List Name',
				name: 'ListName',
				type: 'string',
				default: '',
				description: 'PropRadar keeps the first 50 characters',
			},
			{
				displayName: 'Monitored',
				name: 'isMonitored',
				type: 'boolean',
				default: true,
				description: 'Whether monitoring, insights and automations are on',
			},
			{
				displayName: 'Set as Primary Contact',
				name: 'set_as_primary_contact',
				type: 'boolean',
				default: false,
				description:
					'Whether (import lists) an imported person found but not primary becomes primary',
			},
		],
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex);
	const fields = ownParameters(this, itemIndex, description).collection('updateFields');
	const body: IDataObject = {};
	let notice: string | undefined;
	for (const key of ['DisplayOrder', 'ImportMatchThreshold', 'ImportType'])
		if (fields[key] !== undefined) body[key] = fields[key];
	if (fields.isMonitored !== undefined) body.isMonitored = fields.isMonitored ? 1 : 0;
	if (fields.ListName !== undefined) {
		const name =
			typeof fields.ListName === 'string'
				? fields.ListName.trim()
				: typeof fields.ListName === 'number'
					? String(fields.ListName)
					: undefined;
		if (name === undefined)
			fail(this, itemIndex, `List Name: must be text, got ${shownValue(fields.ListName)}`);
		if (!name) fail(this, itemIndex, 'List Name: must not be empty');
		const kept = truncateListName(name);
		body.ListName = kept.name;
		notice = kept.notice;
	}
	const contact = contactOptions(fields);
	if (contact) {
		// The documents do not say the service merges ImportContactOptions: send the list's current
		// options with the changed ones, so that the other option stays whatever the service does.
		const list = await readList(this, listId, {
			fields: fieldNames(LIST_FIELDS, 'ListID', 'ImportContactOptions'),
			itemIndex,
		});
		const kept = list?.ImportContactOptions;
		body.ImportContactOptions = {
			...(typeof kept === 'object' && kept !== null && !Array.isArray(kept) ? kept : {}),
			...contact,
		};
	}
	if (Object.keys(body).length === 0)
		fail(this, itemIndex, 'Update Fields: add at least one field to change');
	const response = await apiRequest(this, {
		method: 'PATCH',
		path: paths.list(listId),
		body,
		itemIndex,
	});
	const record: IDataObject = { ListID: listId, updateCount: response.updateCount ?? 0 };
	if (notice) record.notice = notice;
	return [record];
}
