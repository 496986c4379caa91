import { randomBytes } from 'node:crypto';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import { warn } from '../../money';
import { fail, readListIds, readRequiredString, readText } from '../../shared/parameters';
import { readAutomation, unreadableWebhookId, webhookIdOf } from '../../shared/answers';
import { idsPicker, shownFor } from '../shapes';
import { assertAllowed, monitorLists, optInProperties, readOptIns } from '../automation/monitoring';

const show = { resource: ['webhook'], operation: ['create'] };

export const description = shownFor(show, [
	{
		displayName: 'Hook URL',
		name: 'hookUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/hooks/propradar',
		description: 'Where PropRadar POSTs the events of the lists that export to this webhook',
	},
	{ displayName: 'Webhook Name', name: 'webhookName', type: 'string', required: true, default: '' },
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			'Sent as "Authorization: Bearer &lt;secret&gt;" with every delivery; empty makes a random one, output once as Secret. A secret typed here is stored in plain text in the workflow.',
	},
	idsPicker(
		'List Names or IDs',
		'lists',
		'getLists',
		'Lists whose automation is turned on and exports to this webhook (their other automation settings are kept)',
	),
	...optInProperties(
		'each list given in Lists',
		"Whether this node may turn on a list's automation that buys (Purchase Phone, Purchase Email, a direct-mail or e-mail marketing order: charged per triggered record, non-refundable, with no Max Cost). Without it, such a list is refused and nothing is created.",
	),
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const hookUrl = readRequiredString(this, itemIndex, 'hookUrl', 'Hook URL');
	let protocol: string;
	try {
		protocol = new URL(hookUrl).protocol;
	} catch (error) {
		fail(
			this,
			itemIndex,
			`Hook URL: "${hookUrl}" is not an absolute URL`,
			(error as Error).message,
		);
	}
	if (protocol !== 'http:' && protocol !== 'https:')
		fail(this, itemIndex, `Hook URL: must start with http:// or https://, got "${protocol}"`);
	const webhookName = readRequiredString(this, itemIndex, 'webhookName', 'Webhook Name');
	const given = readText(this, itemIndex, 'secret', 'Secret', { secret: true });
	const secret = given || randomBytes(32).toString('hex');
	const lists = readListIds(this, itemIndex, 'lists', 'Lists');
	// Turning a list's automation on starts whatever it buys: the same opt-in as Automation > Configure.
	const { allowCharging, turnOn } = readOptIns(this, itemIndex);
	for (const listId of lists) {
		const current = await readAutomation(this, listId, itemIndex);
		await assertAllowed(this, listId, { ...current, isEnabled: 1 }, allowCharging, itemIndex);
	}
	const unmonitored = await monitorLists(this, lists, turnOn, itemIndex, 'no webhook was created');
	const body: IDataObject = { HookUrl: hookUrl, WebhookName: webhookName, Secret: secret };
	if (lists.length > 0) body.Lists = lists;
	const response = await apiRequest<unknown>(this, {
		method: 'POST',
		path: paths.webhooks(),
		body,
		itemIndex,
	});
	const webhookId = webhookIdOf(response);
	if (webhookId === undefined)
		throw unreadableWebhookId(
			this.getNode(),
			response,
			`PropRadar most likely created webhook "${webhookName}" for ${hookUrl}${lists.length > 0 ? ` and wired lists ${lists.join(', ')} to it` : ''}. Find its ID with Webhook > Get Many before creating it again; delete it there if unwanted.`,
			itemIndex,
		);
	if (lists.length === 0)
		warn(
			this,
			`Item at index ${itemIndex}: webhook "${webhookName}" is registered, but no list exports to it, so it is called on nothing: give Lists, or add it to a list's automation (Automation > Configure, Then Export to Webhooks).`,
		);
	return [
		{
			WebhookID: webhookId,
			HookUrl: hookUrl,
			WebhookName: webhookName,
			Lists: lists,
			...(unmonitored.length > 0 ? { monitoringTurnedOn: unmonitored } : {}),
			...(given ? {} : { Secret: secret }),
		},
	];
}
