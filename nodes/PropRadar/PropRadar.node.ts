import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeSubtitle, resourceProperty, resources } from './actions/resources';
import { itemLoopProperties } from './actions/itemLoop';
import { route } from './actions/router';
import { toolDescriptionProperties } from './actions/toolDescriptions';
import * as listSearch from './actions/methods/listSearch';
import * as loadOptions from './actions/methods/loadOptions';

export class PropRadar implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PropRadar',
		name: 'propRadar',
		icon: { light: 'file:../../icons/propradar.svg', dark: 'file:../../icons/propradar.dark.svg' },
		group: ['transform'],
		// 1.1: Simplify, on by default (n8n's UX guidelines); 1 has none, so its workflows keep whole records.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: nodeSubtitle(),
		description:
			'Property data and lead management: lists, imports, owners, properties, automations and webhooks',
		defaults: { name: 'PropRadar' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'propRadarApi', required: true }],
		properties: [
			...toolDescriptionProperties(resources),
			resourceProperty,
			...Object.values(resources).flatMap((resource) => resource.description),
			...itemLoopProperties,
		],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return route.call(this);
	}
}
