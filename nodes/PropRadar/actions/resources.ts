import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationModule } from './shapes';
import * as getMembers from './account/getMembers.operation';
import * as getStatusLabels from './account/getStatusLabels.operation';
import * as configureAutomation from './automation/configure.operation';
import * as getAutomation from './automation/get.operation';
import * as deleteMatch from './importRecord/deleteMatch.operation';
import * as getImportRecords from './importRecord/getMany.operation';
import * as importRecords from './importRecord/import.operation';
import * as updateMatch from './importRecord/updateMatch.operation';
import * as createList from './list/create.operation';
import * as deleteList from './list/delete.operation';
import * as getList from './list/get.operation';
import * as getLists from './list/getMany.operation';
import * as updateList from './list/update.operation';
import * as addListItems from './listItem/add.operation';
import * as getListItems from './listItem/getMany.operation';
import * as removeListItem from './listItem/remove.operation';
import * as getOwners from './person/getOwners.operation';
import * as getRecords from './person/getRecords.operation';
import * as purchaseEmail from './person/purchaseEmail.operation';
import * as purchasePhone from './person/purchasePhone.operation';
import * as getProperty from './property/get.operation';
import * as getComps from './property/getComps.operation';
import * as getEvictions from './property/getEvictions.operation';
import * as getParcels from './property/getParcels.operation';
import * as getTransactions from './property/getTransactions.operation';
import * as searchProperties from './property/search.operation';
import * as createWebhook from './webhook/create.operation';
import * as deleteWebhook from './webhook/delete.operation';
import * as getWebhooks from './webhook/getMany.operation';

export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}

// "getMany" is named "Get Many", "importRecord" "Import Record".
const words = (value: string) =>
	value.charAt(0).toUpperCase() + value.slice(1).replace(/([A-Z])/g, ' $1');

// Each operation's action and description in the panel, and its name when not its value's words.
const TEXTS: Record<
	string,
	Record<string, [action: string, description: string, name?: string]>
> = {
	account: {
		getMembers: [
			'Get the members of the account',
			'Members with the MemberKey that automations use',
		],
		getStatusLabels: [
			'Get the status level labels',
			"The account's labels of status levels 1 to 9",
			'Get Status Level Labels',
		],
	},
	automation: {
		configure: [
			'Configure a list automation',
			'Update the given fields, or replace the whole configuration',
		],
		get: ['Get a list automation', 'Retrieve the automation of a list'],
	},
	importRecord: {
		deleteMatch: [
			'Delete the match of an imported record',
			'Primary-contact changes it made are reverted',
		],
		getMany: [
			'Get many imported records',
			'List the records of an import list, with their matches',
		],
		import: [
			'Import records into an import list',
			'The input items, matched by PropRadar (charged per record)',
		],
		updateMatch: [
			'Correct the match of an imported record',
			'Set the property or person an imported record is matched to',
		],
	},
	list: {
		create: ['Create a list', 'Create a dynamic, static or import list'],
		delete: ['Delete a list', 'Delete a list from the account'],
		get: ['Get a list', 'Retrieve a list with chosen fields'],
		getMany: ['Get many lists', 'Retrieve the lists of the account, filtered and sorted'],
		update: [
			'Update a list',
			'Change the name, monitoring, import options or display order of a list',
		],
	},
	listItem: {
		add: [
			'Add properties to a static list',
			'Add properties to a static list by PropID or by criteria',
		],
		getMany: [
			'Get many items of a list',
			'List the properties in a list, filtered, with chosen fields',
		],
		remove: ['Remove a property from a list', 'Take one property out of a static list'],
	},
	person: {
		getOwners: ['Get the owners of a property', 'Owner records with chosen fields (charged)'],
		getRecords: [
			'Get records of a person',
			'Bankruptcies, divorces, liens, probates or relatives (charged)',
		],
		purchaseEmail: ['Purchase the email address of a person', 'Buy an e-mail address (charged)'],
		purchasePhone: ['Purchase the phone number of a person', 'Buy a phone number (charged)'],
	},
	property: {
		get: ['Get a property', 'One property with chosen fields (charged)'],
		getComps: [
			'Get comparables of a property',
			'Recent sales or for-sale listings like it (charged)',
		],
		getEvictions: ['Get evictions of a property', 'Eviction records (charged)'],
		getParcels: ['Get the parcel shape of a property', 'GeoJSON parcel pieces (charged)'],
		getTransactions: ['Get the transactions of a property', 'Transaction history (charged)'],
		search: ['Search properties by criteria', 'Every property matching criteria (charged)'],
	},
	webhook: {
		create: ['Create a webhook', 'Register a URL that list exports are posted to'],
		delete: ['Delete a webhook', 'Delete a webhook from the account'],
		getMany: ['Get many webhooks', 'Retrieve the webhooks of the account'],
	},
};

// Each resource's default operation and its operations, in the order the panel lists them.
const OPERATIONS: Record<string, [string, Record<string, OperationModule>]> = {
	account: ['getMembers', { getMembers, getStatusLabels }],
	automation: ['get', { configure: configureAutomation, get: getAutomation }],
	importRecord: [
		'import',
		{ deleteMatch, getMany: getImportRecords, import: importRecords, updateMatch },
	],
	list: [
		'getMany',
		{ create: createList, delete: deleteList, get: getList, getMany: getLists, update: updateList },
	],
	listItem: ['getMany', { add: addListItems, getMany: getListItems, remove: removeListItem }],
	person: ['getOwners', { getOwners, getRecords, purchaseEmail, purchasePhone }],
	property: [
		'search',
		{
			get: getProperty,
			getComps,
			getEvictions,
			getParcels,
			getTransactions,
			search: searchProperties,
		},
	],
	webhook: ['getMany', { create: createWebhook, delete: deleteWebhook, getMany: getWebhooks }],
};

// The selector first, shown for the resource only, then each operation's parameters in its order.
export const resources: Record<string, ResourceModule> = Object.fromEntries(
	Object.entries(OPERATIONS).map(([name, [defaultOperation, operations]]) => {
		const selector: INodeProperties = {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [name] } },
			options: Object.entries(TEXTS[name]).map(([value, [action, description, label]]) => ({
				name: label ?? words(value),
				value,
				action,
				description,
			})),
			default: defaultOperation,
		};
		const description = Object.values(operations).flatMap((module) => module.description);
		return [name, { operations, description: [selector, ...description] }];
	}),
);

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: Object.keys(resources).map((value) => ({ name: words(value), value })),
	default: 'list',
};

/** The options of a resource's operation selector, its first parameter. */
export const operationOptions = (resource: ResourceModule) =>
	resource.description[0].options as INodePropertyOptions[];

// "Get Owners · Person": the names the panel shows, looked up by the saved values in one flat map,
// since n8n ends an expression at its first "}}".
export function nodeSubtitle(): string {
	const names: Record<string, string> = {};
	for (const [resource, module] of Object.entries(resources)) {
		for (const operation of operationOptions(module))
			names[`${resource}.${String(operation.value)}`] = `${operation.name} · ${words(resource)}`;
	}
	return `={{ ${JSON.stringify(names)}[$parameter["resource"] + "." + $parameter["operation"]] }}`;
}
