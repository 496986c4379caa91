import { randomBytes } from 'node:crypto';

import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import {
	accessToken,
	apiRequest,
	collectPages,
	CREDENTIAL_TYPE,
	getConnection,
	paths,
	refusedByService,
	toNodeError,
	type ApiEnvelope,
	type AutomationRecord,
	type ListRecord,
	type WebhookRecord,
} from '../PropRadar/transport';
import { readCeiling } from '../PropRadar/shared/charges';
import { idsFrom } from '../PropRadar/shared/parameters';
import { fieldNames, PAGE_LIMITS, TRIGGER_EVENTS, WEBHOOK_FIELDS } from '../PropRadar/shared/vocabulary';
import { deliverySecret, readDeliverySettings, redeliveries, redeliveryKey, sameSecret } from './delivery';
import {
	baselineOf,
	chargingActions,
	formatWebhookName,
	parseWebhookName,
	settleAutomation,
	sortEvents,
	triggerSet,
	wiringAddsFiring,
	type Baseline,
	type TriggerEvent,
	type TriggerHook,
} from './wiring';

/** What a trigger remembers about one registration, from `create` to `delete`. */
export interface Registration {
	webhookId: number;
	listId: number;
	hookUrl: string;
	/**
	 * Random, and no secret by itself: the secret deliveries must carry is derived from it and the
	 * credential's access token when it is needed (`deliverySecret`). The static data, which n8n
	 * stores unencrypted and exports with the workflow, holds nothing that can sign a delivery.
	 */
	secretSalt: string;
	events: TriggerEvent[];
	/** The automation before any trigger was wired (also in the webhook's name). */
	baseline: Baseline;
	/** Whether the automation had actions that charge when this trigger was wired. */
	charging: boolean;
	/**
	 * Set while the registration is not whole: its wiring has not been confirmed yet, or a
	 * deactivation could not finish. `checkExists` never reports such a registration as existing,
	 * and the next `create` or `delete` finishes the clean-up.
	 */
	unfinished?: {
		/** Why, in words (no secret). */
		reason: string;
		/** Monitoring of the list was turned off so that its automation cannot charge; turned on again once finished. */
		monitoringPaused?: boolean;
	};
}

export interface TriggerSettings {
	listId: number;
	events: TriggerEvent[];
	allowChargingAutomation: boolean;
}

/** Writes of one list's automation before giving up on it settling (other processes keep changing it). */
const MAX_SETTLE_WRITES = 6;
/** Pauses between rounds of a clean-up step that failed transiently, on top of the transport's own retries. */
const TEARDOWN_PAUSES_MS = [500, 2_000];

/**
 * The kind of URL a registration serves: the URL's path before the node's webhook id, e.g.
 * `/webhook` (production) or `/webhook-test` ("Listen for test event"). Both kinds can be
 * registered at once, each in its own slot of the node's static data; a new host name (a
 * changed `WEBHOOK_URL`) keeps the slot, so the old registration is replaced, not orphaned.
 */
export function registrationSlot(hookUrl: string, webhookId: string | undefined): string {
	const path = urlPath(hookUrl);
	const marker = webhookId ? path.indexOf(`/${webhookId}/`) : -1;
	return marker >= 0 ? path.slice(0, marker) : path;
}

/** A URL without its scheme and host: what identifies one trigger node's URL (production or test) whatever `WEBHOOK_URL` was. */
function urlPath(url: string): string {
	return String(url ?? '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
}

/** The registrations of this node, by slot (`getWorkflowStaticData('node').registrations`), to change them. */
function registrationsOf(staticData: IDataObject): Record<string, Registration> {
	if (typeof staticData.registrations !== 'object' || staticData.registrations === null) staticData.registrations = {};
	return staticData.registrations as Record<string, Registration>;
}

/** The registrations of this node that deliveries may authenticate against, read only (a delivery changes nothing in the static data). */
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
 * Runs the work on one list's automation after every earlier one on the same list in this process
 * has finished. Across processes the settling (see `settle`) makes the writes converge.
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
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const delivery = readDeliverySettings(context.getNodeParameter('events', []), options);
	if ('problem' in delivery) throw new NodeOperationError(context.getNode(), delivery.problem);
	const allowChargingAutomation = options.allowChargingAutomation ?? false;
	if (typeof allowChargingAutomation !== 'boolean') {
		throw new NodeOperationError(context.getNode(), `Allow Charging Automation: on or off (true or false); got ${JSON.stringify(allowChargingAutomation)}`);
	}
	return { listId: Number(rawList), events: delivery.filter.events, allowChargingAutomation };
}

async function readAutomation(context: IHookFunctions, listId: number): Promise<AutomationRecord> {
	const response = await apiRequest<ApiEnvelope<AutomationRecord>>(context, { method: 'GET', path: paths.automation(listId) });
	const automation = response.results?.[0];
	if (!automation) {
		throw new NodeOperationError(context.getNode(), `List: PropRadar returned no automation for list ${listId}`);
	}
	return automation;
}

/** All of the account's webhooks: ID, address and name, and their secrets only when asked for. */
async function readWebhooks(context: IHookFunctions, { withSecrets = false } = {}): Promise<WebhookRecord[]> {
	const fields = fieldNames(WEBHOOK_FIELDS, 'WebhookID', 'HookUrl', 'WebhookName', ...(withSecrets ? (['Secret'] as const) : []));
	const { records } = await collectPages<WebhookRecord>(
		context,
		{ method: 'GET', path: paths.webhooks(), qs: { Fields: fields } },
		{ pageSize: PAGE_LIMITS.webhooks.defaultLimit, untilEmpty: true },
	);
	return records;
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

/** A failure that may pass: no answer, 429 or 5xx. A refusal (4xx) or a bad setting will not. */
function isTransient(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const code = error.httpCode;
	return code === null || code === undefined || code === '' || code === '429' || Number(code) >= 500;
}

/** Runs a step that is safe to repeat again after a transient failure, with growing pauses. */
async function persist<T>(context: IHookFunctions, step: () => Promise<T>): Promise<T> {
	for (let round = 0; ; round++) {
		try {
			return await step();
		} catch (error) {
			if (round >= TEARDOWN_PAUSES_MS.length || !isTransient(error)) throw toNodeError(context.getNode(), error);
			await sleep(TEARDOWN_PAUSES_MS[round]);
		}
	}
}

/** The trigger webhooks of one list, with what their names say. */
function triggerHooksOf(webhooks: WebhookRecord[], listId: number): Array<TriggerHook & { baseline: Baseline }> {
	return webhooks.flatMap((hook) => {
		const parsed = parseWebhookName(hook.WebhookName);
		return parsed && parsed.listId === listId ? [{ webhookId: Number(hook.WebhookID), events: parsed.events, baseline: parsed.baseline }] : [];
	});
}

/** This node's own trigger webhooks for this kind of URL (production or test): the live one and any left over. */
function ownHooks(webhooks: WebhookRecord[], hookUrl: string): WebhookRecord[] {
	return webhooks.filter((hook) => parseWebhookName(hook.WebhookName) !== undefined && urlPath(hook.HookUrl) === urlPath(hookUrl));
}

/**
 * Brings the list's automation to what its trigger webhooks say (see `settleAutomation`): reads the
 * automation and the webhooks, writes if needed, and reads again until a read needs no write. The
 * write replaces the whole automation with the same body each time, so it is retried. Returns the
 * settled automation, or undefined when the list is gone.
 */
async function settle(context: IHookFunctions, listId: number, leaving: TriggerHook[], fallbackBaseline?: Baseline): Promise<AutomationRecord | undefined> {
	const leavingIds = new Set(leaving.map((hook) => hook.webhookId));
	for (let writes = 0; ; writes++) {
		let automation: AutomationRecord;
		try {
			automation = await readAutomation(context, listId);
		} catch (error) {
			if (isNotFound(error)) return undefined;
			throw toNodeError(context.getNode(), error);
		}
		const webhooks = await readWebhooks(context);
		const listHooks = triggerHooksOf(webhooks, listId);
		const staying = listHooks.filter((hook) => !leavingIds.has(hook.webhookId));
		const baseline = listHooks[0]?.baseline ?? fallbackBaseline ?? baselineOf(automation);
		const next = settleAutomation({ automation, baseline, staying, leaving, existingIds: new Set(webhooks.map((hook) => Number(hook.WebhookID))) });
		if (!next) return automation;
		if (writes >= MAX_SETTLE_WRITES) {
			throw new NodeOperationError(context.getNode(), `List ${listId}: its automation kept changing while this trigger wired it (another process writing it); try again`);
		}
		await apiRequest(context, { method: 'PUT', path: paths.automation(listId), body: next, repeatable: true });
	}
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

async function deleteWebhook(context: IHookFunctions, webhookId: number): Promise<void> {
	try {
		await apiRequest(context, { method: 'DELETE', path: paths.webhook(webhookId), repeatable: true });
	} catch (error) {
		if (!isNotFound(error)) throw toNodeError(context.getNode(), error);
	}
}

async function setMonitoring(context: IHookFunctions, listId: number, isMonitored: 0 | 1): Promise<void> {
	await apiRequest(context, { method: 'PATCH', path: paths.list(listId), body: { isMonitored }, repeatable: true });
}

/**
 * `delete`: takes this node's webhooks (the registered one and any left over) out of their lists'
 * automations, bringing an automation back to its baseline when no trigger is left and nobody
 * changed it since, and deletes them. Anything already gone (list, webhook) is fine. Each step is
 * retried with pauses. When the automation still cannot be written and it would go on charging
 * for this trigger, monitoring of the list is turned off (automations only run on monitored lists);
 * the registration stays, marked unfinished, for the next `create` or `delete` to finish, and
 * the error says so.
 */
export async function unregister(context: IHookFunctions): Promise<void> {
	const { hookUrl, slot, registrations } = slotOf(context);
	const registration = registrations[slot];
	const leftovers = ownHooks(await persist(context, async () => await readWebhooks(context)), hookUrl);
	if (!registration && leftovers.length === 0) return;

	// Everything of this node to take out, by list.
	const leaving = new Map<number, TriggerHook[]>();
	const add = (listId: number, hook: TriggerHook) => leaving.set(listId, [...(leaving.get(listId) ?? []), hook]);
	if (registration) add(registration.listId, { webhookId: registration.webhookId, events: registration.events });
	for (const hook of leftovers) {
		if (Number(hook.WebhookID) === registration?.webhookId) continue;
		const parsed = parseWebhookName(hook.WebhookName)!;
		add(parsed.listId, { webhookId: Number(hook.WebhookID), events: parsed.events });
	}

	const problems: string[] = [];
	let monitoringPaused = registration?.unfinished?.monitoringPaused === true;
	/** Whether an automation may still fire for these webhooks, and whether it may then charge. */
	let stillFiring = false;
	let chargeRisk = false;
	for (const [listId, hooks] of leaving) {
		await oneAtATime(context, listId, async () => {
			// Unwired first, so that the automation stops firing for them before anything else; then
			// the webhooks go; then the list is settled again, in case a process settling it meanwhile
			// wired them again before they were deleted (their ids then dangle, and are dropped).
			const settleList = async () => await persist(context, async () => await settle(context, listId, hooks, registration?.listId === listId ? registration.baseline : undefined));
			let settleError: unknown;
			await settleList().catch((error: unknown) => (settleError = error));
			for (const hook of hooks) {
				try {
					await persist(context, async () => await deleteWebhook(context, hook.webhookId));
				} catch (error) {
					problems.push(`webhook ${hook.webhookId} could not be deleted (${describe(error)})`);
				}
			}
			if (settleError === undefined) await settleList().catch((error: unknown) => (settleError = error));
			const unwired = settleError === undefined;
			if (!unwired) {
				problems.push(`the automation of list ${listId} could not be written (${describe(settleError)})`);
				stillFiring = true;
				// Left-over webhooks without a registration: whether their automation charges is not known here.
				const charges = registration?.listId === listId ? await mayStillCharge(context, registration) : true;
				if (charges && registration?.listId === listId && !monitoringPaused) {
					try {
						await persist(context, async () => await setMonitoring(context, listId, 0));
						monitoringPaused = true;
					} catch (error) {
						problems.push(`monitoring of list ${listId} could not be turned off either (${describe(error)})`);
						chargeRisk = true;
					}
				} else if (charges && !monitoringPaused) {
					chargeRisk = true;
				}
			}
			if (unwired && registration?.listId === listId && monitoringPaused) {
				try {
					await persist(context, async () => await setMonitoring(context, listId, 1));
					monitoringPaused = false;
				} catch (error) {
					problems.push(`monitoring of list ${listId}, turned off by an earlier deactivation, could not be turned on again (${describe(error)})`);
				}
			}
		});
	}

	if (registration) redeliveries.forget(redeliveryKey(context.getWorkflow().id, context.getNode().id, registration.webhookId));
	if (problems.length === 0) {
		delete registrations[slot];
		return;
	}
	const listId = registration?.listId ?? [...leaving.keys()][0];
	const safety = monitoringPaused
		? `Monitoring of list ${listId} was turned off so that its automation cannot charge for this trigger; it is turned on again once the clean-up is finished.`
		: !stillFiring
			? 'The automation no longer fires for this trigger.'
			: chargeRisk
				? `The automation of list ${listId} may still fire, and charge, for this trigger.`
				: `The automation of list ${listId} may still fire for this trigger, but buys nothing when it does.`;
	const message = `PropRadar Trigger: the clean-up of list ${listId} could not finish: ${problems.join('; ')}`;
	const description = `${safety} Activating or deactivating this workflow again finishes the clean-up.`;
	if (registration) registrations[slot] = { ...registration, unfinished: { reason: problems.join('; '), monitoringPaused } };
	context.logger.error(`${message}. ${description}`, { workflowId: context.getWorkflow().id, node: context.getNode().name, listId });
	throw new NodeOperationError(context.getNode(), message, { description });
}

/** Whether the list's automation, left as it is, would go on charging because this trigger made it fire. */
async function mayStillCharge(context: IHookFunctions, registration: Registration): Promise<boolean> {
	let automation: AutomationRecord;
	try {
		automation = await readAutomation(context, registration.listId);
	} catch {
		return registration.charging;
	}
	if (chargingActions(automation).length === 0 || Number(automation.isEnabled) !== 1) return false;
	// Without this trigger the automation would fire for the baseline's triggers (if it was on) and the other triggers' events.
	const firingWithout = registration.baseline.isEnabled === 1 ? triggerSet(registration.baseline.triggers) : new Set<string>();
	let webhooks: WebhookRecord[] = [];
	try {
		webhooks = await readWebhooks(context);
	} catch {
		return true;
	}
	for (const hook of triggerHooksOf(webhooks, registration.listId)) {
		if (hook.webhookId === registration.webhookId || !idsFrom(automation.ExportToWebhookIDs).includes(String(hook.webhookId))) continue;
		for (const event of hook.events) firingWithout.add(TRIGGER_EVENTS[event]);
	}
	return [...triggerSet(automation.Triggers)].some((trigger) => !firingWithout.has(trigger));
}

/** An error's message for the log and the error shown, without anything secret (the transport redacts). */
function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
