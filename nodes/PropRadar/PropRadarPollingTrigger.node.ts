import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { fieldsPicker, toFieldsParam, type FieldsChoice } from './shared/fieldsets';
import { listLocator, readTriggerListId } from './shared/parameters';
import { searchLists } from './shared/listSearch';
import { splitIntoItems, switchProblem, triggerOptions } from './shared/triggerOptions';
import { FIELD_SCOPES } from './shared/vocabulary';
import {
	MAX_WATCHED_FIELDS,
	MAX_WATCHED_PROPERTIES,
	readChanges,
	readNewProperties,
	readWatchedFields,
	type ChangesState,
	type NewPropertiesState,
} from './pollingTrigger/newProperties';

function readWatch(context: IPollFunctions): 'newProperties' | 'changes' {
	const watch = context.getNodeParameter('watch', 'newProperties') as unknown;
	if (watch !== 'newProperties' && watch !== 'changes')
		throw new NodeOperationError(
			context.getNode(),
			`Watch: ${JSON.stringify(watch)} is not one of newProperties, changes`,
		);
	return watch;
}

function readFieldsParam(context: IPollFunctions): string | undefined {
	try {
		return toFieldsParam('listItem', context.getNodeParameter('fields', {}) as FieldsChoice);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message);
	}
}

function readSplit(context: IPollFunctions): boolean {
	const split = (context.getNodeParameter('options', {}) as IDataObject).splitIntoItems ?? true;
	const problem = switchProblem('Split Into Items', split);
	if (problem) throw new NodeOperationError(context.getNode(), problem);
	return split as boolean;
}

export class PropRadarPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PropRadar Polling Trigger',
		name: 'propRadarPollingTrigger',
		icon: { light: 'file:../../icons/propradar.svg', dark: 'file:../../icons/propradar.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["watch"] === "changes" ? "Changes in a list" : "New properties in a list" }}',
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
			{
				displayName: 'Watch',
				name: 'watch',
				type: 'options',
				default: 'newProperties',
				options: [
					{
						name: 'New Properties',
						value: 'newProperties',
						description: 'Each property added to the list, once',
					},
					{
						name: 'Changes in Properties',
						value: 'changes',
						description: `The list's properties whose watched fields changed, with their values before and after, and those that left the list (lists of up to ${MAX_WATCHED_PROPERTIES.toLocaleString('en-US')} properties)`,
					},
				],
			},
			fieldsPicker(
				'listItem',
				{ show: { watch: ['newProperties'] } },
				'Each fieldset includes PropID.',
			),
			{
				displayName: 'Fields to Watch',
				name: 'watchedFields',
				type: 'multiOptions',
				required: true,
				default: [],
				options: FIELD_SCOPES.listItem.fields
					.filter((field) => field !== 'PropID')
					.sort((a, b) => a.localeCompare(b))
					.map((field) => ({ name: field, value: field })),
				description: `Property fields whose changes start the workflow, such as ListingStatus, ForeclosureStage, LastTransferRecDate or ListingPrice (1 to ${MAX_WATCHED_FIELDS})`,
				displayOptions: { show: { watch: ['changes'] } },
			},
			triggerOptions([
				splitIntoItems('each poll that finds something outputs one item with a "properties" array'),
			]),
		],
	};

	methods = { listSearch: { searchLists } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const listId = readTriggerListId(this);
		const watch = readWatch(this);
		const split = readSplit(this);
		const manual = this.getMode() === 'manual';
		// "Fetch Test Event" reads a sample and keeps nothing.
		const state = manual ? {} : this.getWorkflowStaticData('node');
		// What one way of watching kept means nothing to the other: it starts afresh.
		if (state.watch !== watch) {
			for (const key of Object.keys(state)) delete state[key];
			state.watch = watch;
		}
		const found =
			watch === 'changes'
				? await readChanges(this, state as ChangesState, {
						listId,
						fields: readWatchedFields(this),
						manual,
					})
				: await readNewProperties(this, state as NewPropertiesState, {
						listId,
						fields: readFieldsParam(this),
						manual,
					});
		if (found.length === 0) return null;
		const items = split
			? found.map((json) => ({ json }))
			: [{ json: { listId, properties: found } }];
		return [items];
	}
}
