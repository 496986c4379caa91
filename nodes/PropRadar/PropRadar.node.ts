import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resources } from './actions/resources';
import { itemLoopProperties, route } from './actions/router';
import * as listSearch from './methods/listSearch';
import * as loadOptions from './methods/loadOptions';

export class PropRadar implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PropRadar',
		name: 'propRadar',
		icon: { light: 'file:propradar.svg', dark: 'file:propradar.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Property data and lead management: lists, imports, owners, properties, automations and webhooks',
		defaults: { name: 'PropRadar' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'propRadarApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'Automation', value: 'automation' },
					{ name: 'Import Record', value: 'importRecord' },
					{ name: 'List', value: 'list' },
					{ name: 'List Item', value: 'listItem' },
					{ name: 'Person', value: 'person' },
					{ name: 'Property', value: 'property' },
					{ name: 'Webhook', value: 'webhook' },
				],
				default: 'list',
			},
			...Object.values(resources).flatMap((resource) => resource.description),
			...itemLoopProperties,
		],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return route.call(this);
	}
}
