import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { getTriggerListStatus, searchTriggerLists } from './shared/listSearch';
import { listLocator } from './shared/parameters';
import { splitIntoItems, triggerOptions } from './shared/triggerOptions';
import { CHANGE_KINDS, type ChangeKind } from './trigger/delivery';
import { register, registrationIsLive } from './trigger/registration/register';
import { unregister } from './trigger/registration/unregister';
import { receiveDelivery } from './trigger/webhook';

// Named, not written in place: n8n's lint takes dynamic options for an ID picker ("... Name or ID"), and this is a line to read.
const CHOSEN_LIST_OPTIONS = {
	loadOptionsMethod: 'getTriggerListStatus',
	loadOptionsDependsOn: ['listId.value'],
};

export class PropRadarTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PropRadar Trigger',
		name: 'propRadarTrigger',
		icon: { light: 'file:../../icons/propradar.svg', dark: 'file:../../icons/propradar.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves as 1: n8n reads a delivery to a start node of version 1 through an expression, which
		// takes an isolate that lazy acquisition would otherwise spare (docs/design.md).
		version: [1, 1.1],
		defaultVersion: 1.1,
		// Events are a list, or comma-separated text from an expression: read both as text.
		subtitle:
			'={{ [String($parameter["events"]).includes("newMatches") ? "New Matches" : "", String($parameter["events"]).includes("statusChanges") ? "Status Changes" : ""].filter(name => name).join(" + ") }}',
		// n8n's node creator shows it as the PropRadar app's description (docs/trigger.md), so it describes the app.
		description:
			'Property data and lead management: lists, imports, owners, properties, automations and webhooks, and workflows started when properties enter or change in a list',
		defaults: { name: 'PropRadar Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'propRadarApi', required: true }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{
				displayName:
					"PropRadar calls this n8n instance when the list's automation fires, so n8n must be reachable from the service: set N8N_WEBHOOK_URL (formerly WEBHOOK_URL) to n8n's public address. Activating wires a webhook into the list's automation; deactivating takes it out again.",
				name: 'reachabilityNotice',
				type: 'notice',
				default: '',
			},
			// Its "From List" mode also says whether each list is monitored.
			listLocator(undefined, 'List', 'listId', 'searchTriggerLists'),
			{
				displayName: 'Chosen List',
				name: 'listStatus',
				type: 'options',
				typeOptions: CHOSEN_LIST_OPTIONS,
				default: '',
				description:
					'The list chosen above by name, and whether it is monitored: activation needs a monitored list. Shown whichever way the list was picked; nothing here is saved.',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['newMatches'],
				options: [
					{ name: 'New Matches', value: 'newMatches', description: 'A property enters the list' },
					{
						name: 'Status Changes',
						value: 'statusChanges',
						description:
							'A property in the list changes: transfer, loan, listing, foreclosure, listing status or price',
					},
				],
			},
			triggerOptions([
				{
					displayName: 'Allow Charging Automation',
					name: 'allowChargingAutomation',
					type: 'boolean',
					default: false,
					description:
						"Whether to go ahead when this trigger would make the list's automation fire while it buys phones or e-mail addresses or adds properties to a direct-mail or e-mail marketing order: each triggering property is then charged. Off, activation is refused with nothing registered.",
				},
				{
					displayName: 'Change Kinds',
					name: 'changeKinds',
					type: 'multiOptions',
					default: [],
					options: (Object.keys(CHANGE_KINDS) as ChangeKind[])
						.map((kind) => ({ name: CHANGE_KINDS[kind].name, value: kind }))
						.sort((a, b) => a.name.localeCompare(b.name)),
					description:
						'Status changes to pass on; none chosen passes every change, and an event of a kind the node does not know starts the workflow with kind "unknown". Once kinds are chosen, such an event is passed over; new matches always pass.',
				},
				{
					displayName: 'Redelivery Window (Seconds)',
					name: 'redeliveryWindowSeconds',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 600,
					description:
						'A delivery of the same event (same body) within this many seconds is dropped. 0 keeps every delivery.',
				},
				splitIntoItems('a delivery becomes one item with an "events" array'),
			]),
		],
	};

	methods = { listSearch: { searchTriggerLists }, loadOptions: { getTriggerListStatus } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await registrationIsLive(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await register(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				await unregister(this);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}
