import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, paths, type ListRecord } from '../../transport';
import { criteriaProperties, type Criterion } from '../../shared/criteria';
import { listLocator, readCriteriaParameters, readListId, readPropIds } from '../../shared/parameters';

const show = { resource: ['listItem'], operation: ['add'] };

export const description: INodeProperties[] = [
	listLocator(show, 'Static List'),
	{
		displayName: 'Add By',
		name: 'addBy',
		type: 'options',
		options: [
			{ name: 'Property IDs', value: 'propIds', description: 'PropIDs, for example from the input items' },
			{ name: 'Criteria', value: 'criteria', description: 'Every property matching the criteria' },
		],
		default: 'propIds',
		displayOptions: { show },
	},
	{
		displayName: 'Property IDs',
		name: 'propIds',
		type: 'string',
		default: '={{ $json.PropID }}',
		required: true,
		description: 'One PropID or several, comma-separated (or a list from an expression)',
		displayOptions: { show: { ...show, addBy: ['propIds'] } },
	},
	...criteriaProperties({ ...show, addBy: ['criteria'] }, true),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex, 'listId', 'Static List');
	let criteria: Criterion[];
	if (this.getNodeParameter('addBy', itemIndex) === 'propIds') {
		const propIds = readPropIds(this, itemIndex, 'propIds', 'Property IDs');
		if (propIds.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Property IDs: give at least one PropID', { itemIndex });
		}
		criteria = [{ name: 'PropID', value: propIds }];
	} else {
		criteria = readCriteriaParameters(this, itemIndex);
		if (criteria.length === 0) throw new NodeOperationError(this.getNode(), 'Criteria: add at least one criterion', { itemIndex });
	}
	const list = (await apiRequest<{ results?: ListRecord[] }>(this, {
		method: 'GET',
		path: paths.list(listId),
		qs: { Fields: 'ListID,ListType' },
		itemIndex,
	})).results?.[0];
	if (list?.ListType && list.ListType !== 'static') {
		throw new NodeOperationError(this.getNode(), `List ${listId} is a ${list.ListType} list: items can only be added to static lists`, {
			itemIndex,
			description: list.ListType === 'dynamic'
				? 'A dynamic list follows its criteria; change what it matches by creating a new dynamic list.'
				: 'An import list is built from imported records: use Import Record > Import.',
		});
	}
	const response = await apiRequest(this, {
		method: 'PUT',
		path: paths.listItems(listId),
		body: { Criteria: criteria as unknown as IDataObject[] },
		itemIndex,
	});
	return [{ ListID: listId, updateCount: response.updateCount ?? 0 }];
}
