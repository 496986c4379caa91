import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as configure from './configure.operation';
import * as get from './get.operation';

export const automation: ResourceModule = {
	operations: { configure, get },
	description: [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['automation'] } },
			options: [
				{ name: 'Configure', value: 'configure', action: 'Configure a list automation', description: 'Update the given fields, or replace the whole configuration' },
				{ name: 'Get', value: 'get', action: 'Get a list automation' },
			],
			default: 'get',
		},
		...configure.description,
		...get.description,
	] as INodeProperties[],
};
