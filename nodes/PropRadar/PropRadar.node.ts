import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resources } from './actions/resources';
import { itemLoopProperties, route } from './actions/router';
import { toolDescriptionProperties } from './actions/toolDescriptions';
import * as listSearch from './methods/listSearch';
import * as loadOptions from './methods/loadOptions';

export class PropRadar implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PropRadar',
		name: 'propRadar',
		icon: { light: 'file:propradar.svg', dark: 'file:propradar.dark.svg' },
		group: ['transform'],
		version: 1,
		// "Get Owners · Person": the names the panel shows for the operation and the resource, looked up
		// by their saved values (one flat map, so no "}}" before the end; test/engine/subtitles.test.ts
		// checks it against every operation).
		subtitle: '={{ {"account.getMembers":"Get Members · Account","account.getStatusLabels":"Get Status Level Labels · Account","automation.configure":"Configure · Automation","automation.get":"Get · Automation","importRecord.deleteMatch":"Delete Match · Import Record","importRecord.getMany":"Get Many · Import Record","importRecord.import":"Import · Import Record","importRecord.updateMatch":"Update Match · Import Record","list.create":"Create · List","list.delete":"Delete · List","list.get":"Get · List","list.getMany":"Get Many · List","list.update":"Update · List","listItem.add":"Add · List Item","listItem.getMany":"Get Many · List Item","listItem.remove":"Remove · List Item","person.getOwners":"Get Owners · Person","person.getRecords":"Get Records · Person","person.purchaseEmail":"Purchase Email · Person","person.purchasePhone":"Purchase Phone · Person","property.get":"Get · Property","property.getComps":"Get Comps · Property","property.getEvictions":"Get Evictions · Property","property.getParcels":"Get Parcels · Property","property.getTransactions":"Get Transactions · Property","property.search":"Search · Property","webhook.create":"Create · Webhook","webhook.delete":"Delete · Webhook","webhook.getMany":"Get Many · Webhook"}[$parameter["resource"] + "." + $parameter["operation"]] }}',
		description: 'Property data and lead management: lists, imports, owners, properties, automations and webhooks',
		defaults: { name: 'PropRadar' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'propRadarApi', required: true }],
		properties: [
			// The tool variant's description for the model, by operation: what it costs (actions/toolDescriptions.ts).
			...toolDescriptionProperties(resources),
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
