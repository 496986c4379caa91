import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import { resourceModule } from '../descriptions';

async function getMembers(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return (
		(await apiRequest(this, { method: 'GET', path: paths.members(), itemIndex })).results ?? []
	);
}

async function getStatusLabels(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return (
		(await apiRequest(this, { method: 'GET', path: paths.statusLabels(), itemIndex })).results ?? []
	);
}

export const account = resourceModule({
	operations: {
		getMembers: { description: [], execute: getMembers },
		getStatusLabels: { description: [], execute: getStatusLabels },
	},
	selector: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get Members',
				value: 'getMembers',
				action: 'Get the members of the account',
				description: 'Members with the MemberKey that automations use',
			},
			{
				name: 'Get Status Level Labels',
				value: 'getStatusLabels',
				action: 'Get the status level labels',
				description: "The account's labels of status levels 1 to 9",
			},
		],
		default: 'getMembers',
	},
});
