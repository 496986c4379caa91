import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { searchLists } from '../PropRadar/methods/listSearch';
import { fieldsPicker, toFieldsParam, type FieldsChoice } from '../PropRadar/shared/fieldsets';
import { listLocator } from '../PropRadar/shared/parameters';
import { readNewProperties, type NewPropertiesState } from './newProperties';

/** The shared Fields picker for list items, shown always (n8n 2.0 takes no empty displayOptions). */
const fieldsProperty: INodeProperties = (() => {
	const { displayOptions: _always, ...picker } = fieldsPicker(
		'listItem',
		{},
		'Each fieldset includes PropID.',
	);
	return picker;
})();

function readListId(context: IPollFunctions): number {
	const raw = String(
		context.getNodeParameter('listId', undefined, { extractValue: true }) ?? '',
	).trim();
	if (!/^\d+$/.test(raw) || Number(raw) <= 0 || !Number.isSafeInteger(Number(raw)))
		throw new NodeOperationError(
			context.getNode(),
			`List: "${raw}" is not a list ID; a list ID is a positive whole number`,
		);
	return Number(raw);
}

function readFieldsParam(context: IPollFunctions): string | undefined {
	try {
		return toFieldsParam('listItem', context.getNodeParameter('fields', {}) as FieldsChoice);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message);
	}
}

function readSplit(context: IPollFunctions): boolean {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const split = options.splitIntoItems ?? true;
	if (typeof split !== 'boolean')
		throw new NodeOperationError(
			context.getNode(),
			`Split Into Items: on or off (true or false); got ${JSON.stringify(split)}`,
		);
	return split;
}

export class PropRadarPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PropRadar Polling Trigger',
		name: 'propRadarPollingTrigger',
		icon: { light: 'file:propradar.svg', dark: 'file:propradar.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: 'New properties in a list',
		description:
			'Checks a PropRadar list on a schedule and starts a workflow for each property added to it: no webhook, no public address, nothing charged',
		defaults: { name: 'PropRadar Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'propRadarApi', required: true }],
		properties: [
			{
				displayName:
					"n8n asks PropRadar at the Poll Times below; PropRadar never calls n8n, so n8n needs no public address. Only the list's items are read, which is free: no webhook is registered and no automation or monitoring setting is touched.",
				name: 'pollingNotice',
				type: 'notice',
				default: '',
			},
			listLocator(undefined),
			fieldsProperty,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Split Into Items',
						name: 'splitIntoItems',
						type: 'boolean',
						default: true,
						description:
							'Whether to output one item per property; off, each poll that finds new properties outputs one item with a "properties" array',
					},
				],
			},
		],
	};

	methods = { listSearch: { searchLists } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const listId = readListId(this);
		const fields = readFieldsParam(this);
		const split = readSplit(this);
		const state = this.getWorkflowStaticData('node') as NewPropertiesState;
		const found = await readNewProperties(this, state, {
			listId,
			fields,
			manual: this.getMode() === 'manual',
		});
		if (found.length === 0) return null;
		const items = split
			? found.map((json) => ({ json }))
			: [{ json: { listId, properties: found } }];
		return [items];
	}
}
