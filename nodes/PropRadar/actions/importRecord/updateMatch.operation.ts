import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import {
	listLocator,
	readListId,
	readPersonKey,
	readPositiveInteger,
	readPropId,
} from '../../shared/parameters';

const show = { resource: ['importRecord'], operation: ['updateMatch'] };

export const importItemIdProperty = (operationShow: Record<string, string[]>): INodeProperties => ({
	displayName: 'Import Item ID',
	name: 'importItemId',
	type: 'number',
	required: true,
	default: 0,
	description: 'The ListImportItemID of the imported record',
	displayOptions: { show: operationShow },
});

export const description: INodeProperties[] = [
	listLocator(show, 'Import List', 'listId', 'searchImportLists'),
	importItemIdProperty(show),
	{
		displayName: 'Property ID',
		name: 'matchPropId',
		type: 'string',
		default: '',
		description: 'The PropID the record really is (leave empty to keep the property)',
		displayOptions: { show },
	},
	{
		displayName: 'Person Key',
		name: 'matchPersonKey',
		type: 'string',
		default: '',
		description:
			'The PersonKey of the person at that property the record really is (leave empty to keep the person)',
		displayOptions: { show },
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex, 'listId', 'Import List');
	const itemId = readPositiveInteger(this, itemIndex, 'importItemId', 'Import Item ID');
	const body: IDataObject = {};
	const given = (name: string) =>
		String(this.getNodeParameter(name, itemIndex, '') ?? '').trim() !== '';
	const propId = given('matchPropId') ? readPropId(this, itemIndex, 'matchPropId') : '';
	const personKey = given('matchPersonKey') ? readPersonKey(this, itemIndex, 'matchPersonKey') : '';
	if (propId) body.PropID = propId;
	if (personKey) body.PersonKey = personKey;
	if (!propId && !personKey) {
		throw new NodeOperationError(
			this.getNode(),
			'Property ID or Person Key: give at least one to correct the match',
			{ itemIndex },
		);
	}
	const response = await apiRequest(this, {
		method: 'PATCH',
		path: paths.importItem(listId, itemId),
		body,
		repeatable: true,
		itemIndex,
	});
	return response.results ?? [];
}
