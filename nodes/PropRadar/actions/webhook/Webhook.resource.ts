import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getMany from './getMany.operation';

export const webhook: ResourceModule = {
	operations: { create, delete: del, getMany },
	description: [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['webhook'] } },
			options: [
				{ name: 'Create', value: 'create', action: 'Create a webhook' },
				{ name: 'Delete', value: 'delete', action: 'Delete a webhook' },
				{ name: 'Get Many', value: 'getMany', action: 'Get many webhooks' },
			],
			default: 'getMany',
		},
		...create.description,
		...del.description,
		...getMany.description,
	] as INodeProperties[],
};
