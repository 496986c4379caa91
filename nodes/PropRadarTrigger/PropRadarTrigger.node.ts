import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchLists } from '../PropRadar/methods/listSearch';
import { listLocator } from '../PropRadar/shared/parameters';

export class PropRadarTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PropRadar Trigger',
		name: 'propRadarTrigger',
		icon: { light: 'file:propradar.svg', dark: 'file:propradar.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when properties enter a PropRadar list or change in it',
		defaults: { name: 'PropRadar Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'propRadarApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			listLocator(undefined),
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['newMatches'],
				options: [
					{ name: 'New Matches', value: 'newMatches', description: 'A property enters the list' },
					{ name: 'Status Changes', value: 'statusChanges', description: 'A property in the list changes' },
				],
			},
		],
	};

	methods = { listSearch: { searchLists } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return { workflowData: [this.helpers.returnJsonArray(this.getBodyData())] };
	}
}
