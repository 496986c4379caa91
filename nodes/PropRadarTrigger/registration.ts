import { randomBytes } from 'node:crypto';

import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, collectPages, getConnection, paths, toNodeError, type ApiEnvelope, type AutomationRecord, type ListRecord, type WebhookRecord } from '../PropRadar/transport';
import { idsFrom } from '../PropRadar/shared/parameters';
import { redeliveries, redeliveryKey } from './delivery';
import {
	baselineOf,
	chargingActions,
	formatWebhookName,
	parseWebhookName,
	sortEvents,
	unwireAutomation,
	wireAutomation,
	wiringAddsFiring,
	type Baseline,
	type TriggerEvent,
} from './wiring';

/** What a trigger remembers about one registration, from `create` to `delete`. */
export interface Registration {
	webhookId: number;
	listId: number;
	hookUrl: string;
	/** The bearer secret deliveries must carry. Never shown anywhere. */
	secret: string;
	events: TriggerEvent[];
	/** The automation before any trigger was wired (also in the webhook's name). */
	baseline: Baseline;
	/** What this trigger wrote into the automation, next to the baseline: what it changed. */
	wrote: { isEnabled: number; Triggers: string };
}

export interface TriggerSettings {
	listId: number;
	events: TriggerEvent[];
	allowChargingAutomation: boolean;
}

const WEBHOOK_PAGE_SIZE = 500;

/**
 * The kind of URL a registration serves: the URL's path before the node's webhook id, e.g.
 * `/webhook` (production) or `/webhook-test` ("Listen for test event"). Both kinds can be
 * registered at once, each in its own slot of the node's static data; a new host name (a
 * changed `WEBHOOK_URL`) keeps the slot, so the old registration is replaced, not orphaned.
 */
export function registrationSlot(hookUrl: string, webhookId: string | undefined): string {
	const path = hookUrl.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
	const marker = webhookId ? path.indexOf(`/${webhookId}/`) : -1;
	return marker >= 0 ? path.slice(0, marker) : path;
}

/** The registrations of this node, by slot (`getWorkflowStaticData('node').registrations`), to change them. */
function registrationsOf(staticData: IDataObject): Record<string, Registration> {
	if (typeof staticData.registrations !== 'object' || staticData.registrations === null) staticData.registrations = {};
	return staticData.registrations as Record<string, Registration>;
}

/** The registrations of this node, read only (a delivery changes nothing in the static data). */
export function liveRegistrations(staticData: IDataObject): Registration[] {
	const registrations = staticData.registrations;
	return typeof registrations === 'object' && registrations !== null ? Object.values(registrations as Record<string, Registration>) : [];
}

function slotOf(context: IHookFunctions): { hookUrl: string; slot: string; registrations: Record<string, Registration> } {
	const hookUrl = context.getNodeWebhookUrl('default');
	if (!hookUrl) throw new NodeOperationError(context.getNode(), 'n8n gave this trigger no webhook URL');
	return { hookUrl, slot: registrationSlot(hookUrl, context.getNode().webhookId), registrations: registrationsOf(context.getWorkflowStaticData('node')) };
}

const listQueues = new Map<string, Promise<unknown>>();

/**
 * Runs the read, merge and write of one list's automation after every earlier one on the same
 * list in this process has finished, so that workflows activated together (n8n starting up) do
 * not overwrite each other's wiring.
 */
async function oneAtATime<T>(context: IHookFunctions, listId: number, work: () => Promise<T>): Promise<T> {
	const key = `${(await getConnection(context)).baseUrl} ${listId}`;
	const previous = listQueues.get(key) ?? Promise.resolve();
	const run = previous.then(work);
	const done = run.then(
		() => undefined,
		() => undefined,
	);
	listQueues.set(key, done);
	try {
		return await run;
	} finally {
		if (listQueues.get(key) === done) listQueues.delete(key);
	}
}

/** The trigger's parameters, checked before anything is sent. */
export function readSettings(context: IHookFunctions): TriggerSettings {
	const rawList = String(context.getNodeParameter('listId', undefined, { extractValue: true }) ?? '').trim();
	if (!/^\d+$/.test(rawList) || Number(rawList) <= 0) {
		throw new NodeOperationError(context.getNode(), `List: "${rawList}" is not a list ID; a list ID is a positive whole number`);
	}
	const chosen = context.getNodeParameter('events', []) as string[];
	const events = sortEvents(chosen.filter((event): event is TriggerEvent => event === 'newMatches' || event === 'statusChanges'));
	if (events.length === 0 || events.length !== chosen.length) {
		throw new NodeOperationError(context.getNode(), `Events: choose New Matches, Status Changes or both (got "${chosen.join(', ')}")`);
	}
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return { listId: Number(rawList), events, allowChargingAutomation: options.allowChargingAutomation === true };
}

async function readAutomation(context: IHookFunctions, listId: number): Promise<AutomationRecord> {
	const response = await apiRequest<ApiEnvelope<AutomationRecord>>(context, { method: 'GET', path: paths.automation(listId) });
	const automation = response.results?.[0];
	if (!automation) {
		throw new NodeOperationError(context.getNode(), `List: PropRadar returned no automation for list ${listId}`);
	}
	return automation;
}

async function readWebhooks(context: IHookFunctions): Promise<WebhookRecord[]> {
	const { records } = await collectPages<WebhookRecord>(
		context,
		{ method: 'GET', path: paths.webhooks(), qs: { Fields: 'WebhookID,HookUrl,WebhookName' } },
		{ pageSize: WEBHOOK_PAGE_SIZE },
	);
	return records;
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

/** The other trigger webhooks wired to the list's automation, with what their names say. */
function siblingTriggers(automation: AutomationRecord, webhooks: WebhookRecord[], listId: number, ownId?: number) {
	const wiredIds = new Set(idsFrom(automation.ExportToWebhookIDs));
	return webhooks
		.filter((hook) => hook.WebhookID !== ownId && wiredIds.has(String(hook.WebhookID)))
		.map((hook) => parseWebhookName(hook.WebhookName))
		.filter((parsed) => parsed !== undefined && parsed.listId === listId) as NonNullable<ReturnType<typeof parseWebhookName>>[];
}

/** `checkExists`: the stored webhook still exists with this URL and is still wired to the list. */
export async function registrationIsLive(context: IHookFunctions): Promise<boolean> {
	const { hookUrl, slot, registrations } = slotOf(context);
	const registration = registrations[slot];
	if (!registration) return false;
	const settings = readSettings(context);
	if (registration.listId !== settings.listId || registration.hookUrl !== hookUrl) return false;
	if (sortEvents(registration.events).join() !== settings.events.join()) return false;

	const remote = (await readWebhooks(context)).find((hook) => hook.WebhookID === registration.webhookId);
	if (!remote || remote.HookUrl !== hookUrl) return false;
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
 * `create`: registers a webhook with a fresh secret and wires it into the list's automation
 * (read, merge, write). Refuses, with nothing registered, when turning the automation on would
 * start actions that cost money and the user did not allow it.
 */
export async function register(context: IHookFunctions): Promise<void> {
	const settings = readSettings(context);
	const { hookUrl, slot, registrations } = slotOf(context);

	// A registration n8n no longer considers live (moved list, changed URL, unwired): remove it first.
	if (registrations[slot]) await unregister(context);

	registrations[slot] = await oneAtATime(context, settings.listId, async () => await wire(context, settings, hookUrl));
}

/** Registers the webhook and wires it into the list's automation; returns what to remember. */
async function wire(context: IHookFunctions, settings: TriggerSettings, hookUrl: string): Promise<Registration> {
	const list = await apiRequest<ApiEnvelope<ListRecord>>(context, { method: 'GET', path: paths.list(settings.listId) });
	if (Number(list.results?.[0]?.isMonitored) === 0) {
		throw new NodeOperationError(context.getNode(), `List ${settings.listId} is not monitored, so its automation never fires`, {
			description: 'Nothing was registered. Turn monitoring on for the list (PropRadar > List > Update, Monitored), then activate again.',
		});
	}
	const automation = await readAutomation(context, settings.listId);
	const charging = chargingActions(automation);
	if (charging.length > 0 && wiringAddsFiring(automation, settings.events) && !settings.allowChargingAutomation) {
		throw new NodeOperationError(
			context.getNode(),
			`List ${settings.listId}: its automation would ${charging.join(', ')} for every property that triggers it, and this trigger would make it fire`,
			{
				description:
					'Nothing was registered and nothing was charged. Remove those actions from the automation, or turn on the option "Allow Charging Automation" if the charges are intended.',
			},
		);
	}
	const siblings = siblingTriggers(automation, await readWebhooks(context), settings.listId);
	const baseline = siblings[0]?.baseline ?? baselineOf(automation);

	const secret = randomBytes(32).toString('hex');
	const created = await apiRequest<ApiEnvelope<{ WebhookID: number }>>(context, {
		method: 'POST',
		path: paths.webhooks(),
		body: {
			HookUrl: hookUrl,
			WebhookName: formatWebhookName({ listId: settings.listId, events: settings.events, baseline }),
			Secret: secret,
		},
	});
	const webhookId = Number(created.results?.[0]?.WebhookID);
	if (!Number.isInteger(webhookId) || webhookId <= 0) {
		throw new NodeOperationError(context.getNode(), 'PropRadar did not return a WebhookID for the new webhook');
	}

	const wired = wireAutomation(automation, webhookId, settings.events);
	try {
		// Writing the whole automation again is harmless, so a 429, 5xx or dropped connection is retried.
		await apiRequest(context, { method: 'PUT', path: paths.automation(settings.listId), body: wired, repeatable: true });
	} catch (error) {
		await deleteWebhook(context, webhookId).catch(() => undefined);
		throw toNodeError(context.getNode(), error);
	}

	return {
		webhookId,
		listId: settings.listId,
		hookUrl,
		secret,
		events: settings.events,
		baseline,
		wrote: { isEnabled: Number(wired.isEnabled), Triggers: String(wired.Triggers) },
	};
}

async function deleteWebhook(context: IHookFunctions, webhookId: number): Promise<void> {
	try {
		await apiRequest(context, { method: 'DELETE', path: paths.webhook(webhookId), repeatable: true });
	} catch (error) {
		if (!isNotFound(error)) throw toNodeError(context.getNode(), error);
	}
}

/**
 * `delete`: takes this webhook out of the list's automation, brings the automation back to its
 * baseline when this was the last trigger and nobody changed it since, and deletes the webhook.
 * Anything already gone (list, webhook) is fine.
 */
export async function unregister(context: IHookFunctions): Promise<void> {
	const { slot, registrations } = slotOf(context);
	const registration = registrations[slot];
	if (!registration) return;

	await oneAtATime(context, registration.listId, async () => {
		let automation: AutomationRecord | undefined;
		try {
			automation = await readAutomation(context, registration.listId);
		} catch (error) {
			if (!isNotFound(error)) throw toNodeError(context.getNode(), error);
		}
		if (automation) {
			const webhooks = await readWebhooks(context);
			const siblings = siblingTriggers(automation, webhooks, registration.listId, registration.webhookId);
			const unwired = unwireAutomation({
				automation,
				webhookId: registration.webhookId,
				events: registration.events,
				baseline: registration.baseline,
				siblingEvents: siblings.map((sibling) => sibling.events),
			});
			if (unwired) await apiRequest(context, { method: 'PUT', path: paths.automation(registration.listId), body: unwired, repeatable: true });
		}
		await deleteWebhook(context, registration.webhookId);
	});
	delete registrations[slot];
	redeliveries.forget(redeliveryKey(context.getWorkflow().id, context.getNode().id, registration.webhookId));
}
