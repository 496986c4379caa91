import { randomBytes } from 'node:crypto';

import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	accessToken,
	apiRequest,
	CREDENTIAL_TYPE,
	paths,
	refusedByService,
	toNodeError,
	type ApiEnvelope,
	type AutomationRecord,
	type ListRecord,
} from '../../PropRadar/transport';
import { readCeiling } from '../../PropRadar/money';
import { idsFrom } from '../../PropRadar/shared/parameters';
import { deliverySecret, readDeliverySettings, sameSecret } from '../delivery';
import { baselineOf, chargingActions, formatWebhookName, sortEvents, wiringAddsFiring, type TriggerEvent } from '../wiring';
import { oneAtATime, slotOf, type Registration } from './slot';
import { isNotFound, ownHooks, readAutomation, readWebhooks, settle, triggerHooksOf } from './settle';
import { unregister } from './unregister';

/** Activation: the trigger's settings, `checkExists` and `create` (the webhook registered and wired into the list's automation). */

export interface TriggerSettings {
	listId: number;
	events: TriggerEvent[];
	allowChargingAutomation: boolean;
}

/** The trigger's parameters, checked before anything is sent. */
export function readSettings(context: IHookFunctions): TriggerSettings {
	const rawList = String(context.getNodeParameter('listId', undefined, { extractValue: true }) ?? '').trim();
	if (!/^\d+$/.test(rawList) || Number(rawList) <= 0) {
		throw new NodeOperationError(context.getNode(), `List: "${rawList}" is not a list ID; a list ID is a positive whole number`);
	}
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const delivery = readDeliverySettings(context.getNodeParameter('events', []), options);
	if ('problem' in delivery) throw new NodeOperationError(context.getNode(), delivery.problem);
	const allowChargingAutomation = options.allowChargingAutomation ?? false;
	if (typeof allowChargingAutomation !== 'boolean') {
		throw new NodeOperationError(context.getNode(), `Allow Charging Automation: on or off (true or false); got ${JSON.stringify(allowChargingAutomation)}`);
	}
	return { listId: Number(rawList), events: delivery.filter.events, allowChargingAutomation };
}

/** `checkExists`: the stored registration is whole, its webhook exists with this URL, no other is left over, and it is wired. */
export async function registrationIsLive(context: IHookFunctions): Promise<boolean> {
	const { hookUrl, slot, registrations } = slotOf(context);
	const registration = registrations[slot];
	if (!registration || registration.unfinished) return false;
	const settings = readSettings(context);
	if (registration.listId !== settings.listId || registration.hookUrl !== hookUrl) return false;
	if (sortEvents(registration.events).join() !== settings.events.join()) return false;

	const own = ownHooks(await readWebhooks(context, { withSecrets: true }), hookUrl);
	if (own.length !== 1 || Number(own[0].WebhookID) !== registration.webhookId || own[0].HookUrl !== hookUrl) return false;
	// PropRadar signs with the secret it was given; after the credential's token was changed the
	// secret derived now differs, and registering anew gives PropRadar the new one.
	if (!sameSecret(String(own[0].Secret ?? ''), deliverySecret(await accessToken(context), registration.secretSalt))) return false;
	let automation: AutomationRecord;
	try {
		automation = await readAutomation(context, registration.listId);
	} catch (error) {
		if (isNotFound(error)) return false;
		throw toNodeError(context.getNode(), error);
	}
	const wired = idsFrom(automation.ExportToWebhookIDs).includes(String(registration.webhookId));
	return wired && !wiringAddsFiring(automation, registration.events);
}

/**
 * `create`: first finishes whatever an earlier registration of this node left (an unfinished
 * deactivation, a webhook whose registration answer was lost), then registers a webhook with a
 * fresh secret (derived from a fresh salt and the credential's token) and wires it into the
 * list's automation. Refuses, with nothing registered, when turning the automation on would start
 * actions that cost money and that is not allowed.
 */
export async function register(context: IHookFunctions): Promise<void> {
	const settings = readSettings(context);
	const { hookUrl, slot, registrations } = slotOf(context);
	await unregister(context);
	try {
		await oneAtATime(context, settings.listId, async () => await wire(context, settings, hookUrl, slot, registrations));
	} catch (error) {
		// Whatever got registered goes again now; what cannot go yet stays marked for the next run.
		await unregister(context).catch(() => undefined);
		throw toNodeError(context.getNode(), error);
	}
}

/** Why the automation may not be made to fire, or undefined when it may. */
async function chargingRefusal(context: IHookFunctions, settings: TriggerSettings, automation: AutomationRecord): Promise<NodeOperationError | undefined> {
	const charging = chargingActions(automation);
	if (charging.length === 0 || !wiringAddsFiring(automation, settings.events)) return undefined;
	const what = `List ${settings.listId}: its automation would ${charging.join(', ')} for every property that triggers it, and this trigger would make it fire`;
	const credential = await context.getCredentials<{ spendingCeiling?: unknown; allowChargingAutomations?: unknown }>(CREDENTIAL_TYPE);
	const ceiling = readCeiling(context, credential.spendingCeiling, 'Nothing was registered and nothing was charged.');
	if (ceiling !== undefined && credential.allowChargingAutomations !== true) {
		return new NodeOperationError(context.getNode(), `${what}, and the PropRadar credential does not allow charging automations`, {
			description:
				'Nothing was registered and nothing was charged. The credential has a spending ceiling, and an automation charges inside PropRadar, outside any node run, where no ceiling bounds it. The owner of the credential can turn on its option "Allow Charging Automations" if the charges are intended; otherwise remove those actions from the automation.',
		});
	}
	if (settings.allowChargingAutomation) return undefined;
	return new NodeOperationError(context.getNode(), what, {
		description:
			'Nothing was registered and nothing was charged. Remove those actions from the automation, or turn on the option "Allow Charging Automation" if the charges are intended.',
	});
}

/** Registers the webhook and wires it into the list's automation, remembering it in the slot. */
async function wire(context: IHookFunctions, settings: TriggerSettings, hookUrl: string, slot: string, registrations: Record<string, Registration>): Promise<void> {
	const list = await apiRequest<ApiEnvelope<ListRecord>>(context, { method: 'GET', path: paths.list(settings.listId) });
	if (Number(list.results?.[0]?.isMonitored) === 0) {
		throw new NodeOperationError(context.getNode(), `List ${settings.listId} is not monitored, so its automation never fires`, {
			description: 'Nothing was registered. Turn monitoring on for the list (PropRadar > List > Update, Monitored), then activate again.',
		});
	}
	const automation = await readAutomation(context, settings.listId);
	const refusal = await chargingRefusal(context, settings, automation);
	if (refusal) throw refusal;
	const baseline = triggerHooksOf(await readWebhooks(context), settings.listId)[0]?.baseline ?? baselineOf(automation);

	const secretSalt = randomBytes(32).toString('hex');
	const secret = deliverySecret(await accessToken(context), secretSalt);
	if (secret === '') throw new NodeOperationError(context.getNode(), 'Access Token: the PropRadar credential has no access token');
	const webhookName = formatWebhookName({ listId: settings.listId, events: settings.events, baseline });
	const webhookId = await createWebhook(context, { HookUrl: hookUrl, WebhookName: webhookName, Secret: secret });

	// Remembered before the wiring, as unfinished: if the wiring fails, n8n's `delete` (which it
	// runs after a failed `create`) or the next activation takes it out again.
	registrations[slot] = {
		webhookId,
		listId: settings.listId,
		hookUrl,
		secretSalt,
		events: settings.events,
		baseline,
		charging: chargingActions(automation).length > 0,
		unfinished: { reason: 'the webhook was registered but not yet wired' },
	};
	const settled = await settle(context, settings.listId, []);
	if (!settled || !idsFrom(settled.ExportToWebhookIDs).includes(String(webhookId))) {
		throw new NodeOperationError(context.getNode(), `List ${settings.listId}: the webhook could not be wired into the list's automation`);
	}
	delete registrations[slot].unfinished;
}

/**
 * Registers a webhook. When the answer is lost (no answer, 5xx), the webhook may exist anyway:
 * it is looked for by its URL, name and secret and adopted. Otherwise the error stands, and the
 * webhook, if it exists after all, is found by its URL and name and removed by the next `delete`
 * or `create` of this node.
 */
async function createWebhook(context: IHookFunctions, body: { HookUrl: string; WebhookName: string; Secret: string }): Promise<number> {
	let created: ApiEnvelope<{ WebhookID: number }>;
	try {
		created = await apiRequest<ApiEnvelope<{ WebhookID: number }>>(context, { method: 'POST', path: paths.webhooks(), body });
	} catch (error) {
		// A refusal by the service created nothing; any other failure may have.
		if (refusedByService(error)) throw toNodeError(context.getNode(), error);
		const adopted = await findCreated(context, body).catch(() => undefined);
		if (adopted === undefined) throw toNodeError(context.getNode(), error);
		return adopted;
	}
	const webhookId = Number(created.results?.[0]?.WebhookID);
	if (!Number.isInteger(webhookId) || webhookId <= 0) {
		throw new NodeOperationError(context.getNode(), 'PropRadar did not return a WebhookID for the new webhook');
	}
	return webhookId;
}

async function findCreated(context: IHookFunctions, body: { HookUrl: string; WebhookName: string; Secret: string }): Promise<number | undefined> {
	const records = await readWebhooks(context, { withSecrets: true });
	const match = records.find((hook) => hook.HookUrl === body.HookUrl && hook.WebhookName === body.WebhookName && hook.Secret === body.Secret);
	return match ? Number(match.WebhookID) : undefined;
}
