import type {
	IDataObject,
	IHookFunctions,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { listLocator } from './shared/parameters';
import { accessToken } from './transport';
import {
	bearerMatches,
	CHANGE_KINDS,
	deliverySecret,
	parseDelivery,
	readDeliverySettings,
	redeliveries,
	redeliveryKey,
	wanted,
	type ChangeKind,
} from './trigger/delivery';
import { getTriggerListStatus, searchTriggerLists } from './trigger/methods';
import {
	liveRegistrations,
	register,
	registrationIsLive,
	unregister,
} from './trigger/registration';

/** The shared list picker, whose "From List" mode here also says whether each list is monitored. */
const triggerListLocator: INodeProperties = (() => {
	const locator = listLocator(undefined);
	return {
		...locator,
		modes: locator.modes?.map((mode) =>
			mode.name === 'list'
				? { ...mode, typeOptions: { ...mode.typeOptions, searchListMethod: 'searchTriggerLists' } }
				: mode,
		),
	};
})();

/** When each trigger node last warned of a refused delivery: once in a while, not for every one a stranger sends. */
const refusalWarnings = new Map<string, number>();
const REFUSAL_WARNING_EVERY_MS = 10 * 60_000;
const MAX_REFUSAL_WARNINGS = 1_000;

function warnOfRefusal(context: IWebhookFunctions): void {
	const workflowId = context.getWorkflow().id;
	const node = context.getNode();
	const key = `${workflowId ?? ''}/${node.id}`;
	const now = Date.now();
	if ((refusalWarnings.get(key) ?? -Infinity) > now - REFUSAL_WARNING_EVERY_MS) return;
	refusalWarnings.delete(key);
	refusalWarnings.set(key, now);
	while (refusalWarnings.size > MAX_REFUSAL_WARNINGS)
		refusalWarnings.delete(refusalWarnings.keys().next().value as string);
	context.logger.warn(
		`PropRadar Trigger refused a delivery whose Authorization does not carry this ` +
			`trigger's secret (401; nothing started), in workflow ${workflowId ?? ''}, ` +
			`node "${node.name}". ` +
			'The secret is derived from the access token of the PropRadar credential: if that ' +
			'token was changed since the workflow was published, PropRadar still signs with ' +
			'the secret made from the old one, and its deliveries are refused until the ' +
			'trigger registers anew: publish the workflow again (deactivate and activate it). ' +
			'Otherwise the delivery did not come from PropRadar.',
		{ workflowId, node: node.name },
	);
}

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
			triggerListLocator,
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
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
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
							'Status changes to pass on; none chosen passes every change. New matches always pass.',
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
					{
						displayName: 'Split Into Items',
						name: 'splitIntoItems',
						type: 'boolean',
						default: true,
						description:
							'Whether to output one item per property; off, a delivery becomes one item with an "events" array',
					},
				],
			},
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
		// Production and test registrations may both be live: a delivery carries the secret of one of them.
		const authorization = this.getHeaderData().authorization;
		const registrations = liveRegistrations(this.getWorkflowStaticData('node'));
		const response = this.getResponseObject();
		if (registrations.length === 0) {
			// n8n stores the registration only once `create` returns, but PropRadar may deliver as soon as it is wired.
			response.setHeader('Retry-After', '2');
			response
				.status(503)
				.json({ message: 'This trigger is not registered yet; deliver again later' });
			return { noWebhookResponse: true };
		}
		// The secrets are derived now: the static data holds only their salts (see `deliverySecret`).
		const token = await accessToken(this);
		const registration = registrations.find((candidate) =>
			bearerMatches(authorization, deliverySecret(token, candidate.secretSalt)),
		);
		if (!registration) {
			if (typeof authorization === 'string' && /^Bearer\s+\S/i.test(authorization))
				warnOfRefusal(this);
			response.status(401).json({ message: 'Authorization failed' });
			return { noWebhookResponse: true };
		}
		const delivery = parseDelivery(this.getRequestObject().body);
		if ('malformed' in delivery) {
			response.status(400).json({
				message:
					`${delivery.malformed}: expected a JSON object, or an array of objects, ` +
					`each with a TriggerType`,
			});
			return { noWebhookResponse: true };
		}

		// Checked at activation; an expression could still give something else now.
		const settings = readDeliverySettings(
			this.getNodeParameter('events', []),
			this.getNodeParameter('options', {}) as IDataObject,
		);
		if ('problem' in settings) throw new NodeOperationError(this.getNode(), settings.problem);
		const triggerKey = redeliveryKey(
			this.getWorkflow().id,
			this.getNode().id,
			registration.webhookId,
		);
		const admission = redeliveries.admit(
			triggerKey,
			delivery.events.filter((event) => wanted(event, settings.filter)),
			settings.windowMs,
			Date.now(),
		);
		if ('unsettled' in admission) {
			// Whether their execution started is not known yet: dropping them could lose them.
			response.setHeader('Retry-After', '1');
			response.status(503).json({
				message: 'An earlier delivery of these events is still being started; deliver again later',
			});
			return { noWebhookResponse: true };
		}
		const fresh = admission.fresh;
		if (fresh.length === 0)
			return { webhookResponse: { received: delivery.events.length, started: false } };
		// n8n answers 200 once the execution is created, 500 when that failed (docs/design.md). It ends its
		// answer even after the service hung up, and then only 'prefinish' is emitted, not 'finish'.
		response.once('prefinish', () =>
			redeliveries.settle(triggerKey, fresh, response.statusCode < 300),
		);
		const items = settings.splitIntoItems ? fresh : [{ events: fresh }];
		return { workflowData: [this.helpers.returnJsonArray(items)] };
	}
}
