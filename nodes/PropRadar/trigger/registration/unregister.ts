import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	apiRequest,
	paths,
	toNodeError,
	type AutomationRecord,
	type WebhookRecord,
} from '../../transport';
import { idsFrom } from '../../shared/parameters';
import { TRIGGER_EVENTS } from '../../shared/vocabulary';
import { redeliveries, redeliveryKey } from '../redelivery';
import {
	chargingActions,
	listIdInName,
	parseWebhookName,
	triggerSet,
	type TriggerHook,
} from '../wiring';
import { oneAtATime, slotOf, type Registration } from './slot';
import {
	isNotFound,
	ownHooks,
	persist,
	readAutomation,
	readWebhooks,
	settle,
	triggerHooksOf,
} from './settle';

async function deleteWebhook(context: IHookFunctions, webhookId: number): Promise<void> {
	try {
		await apiRequest(context, {
			method: 'DELETE',
			path: paths.webhook(webhookId),
			repeatable: true,
		});
	} catch (error) {
		if (!isNotFound(error)) throw toNodeError(context.getNode(), error);
	}
}

async function setMonitoring(
	context: IHookFunctions,
	listId: number,
	isMonitored: 0 | 1,
): Promise<void> {
	await apiRequest(context, {
		method: 'PATCH',
		path: paths.list(listId),
		body: { isMonitored },
		repeatable: true,
	});
}

// When an automation still cannot be written and would go on charging for this trigger, monitoring of the
// list is turned off (automations only run on monitored lists); the registration stays, marked
// unfinished, for the next `create` or `delete` to finish.
export async function unregister(context: IHookFunctions): Promise<void> {
	const { hookUrl, slot, registrations } = slotOf(context);
	const registration = registrations[slot];
	const leftovers = ownHooks(
		await persist(context, async () => await readWebhooks(context)),
		hookUrl,
		registration?.webhookId,
	);
	if (!registration && leftovers.length === 0) return;

	const leaving = new Map<number, TriggerHook[]>();
	const add = (listId: number, hook: TriggerHook) =>
		leaving.set(listId, [...(leaving.get(listId) ?? []), hook]);
	if (registration)
		add(registration.listId, { webhookId: registration.webhookId, events: registration.events });
	// Found by name: a cut name may no longer say its events (none taken) or even its list.
	const listless: number[] = [];
	for (const hook of leftovers) {
		const webhookId = Number(hook.WebhookID);
		if (webhookId === registration?.webhookId) continue;
		const parsed = parseWebhookName(hook.WebhookName);
		const listId = parsed?.listId ?? listIdInName(hook.WebhookName) ?? registration?.listId;
		if (listId === undefined) listless.push(webhookId);
		else add(listId, { webhookId, events: parsed?.events ?? [] });
	}

	const problems: string[] = [];
	let monitoringPaused = registration?.unfinished?.monitoringPaused === true;
	let stillFiring = false;
	let chargeRisk = false;
	for (const [listId, hooks] of leaving) {
		await oneAtATime(context, listId, async () => {
			// Unwired first, so the automation stops firing for them; settled again after the deletion, in case
			// another process wired them again meanwhile (their ids then dangle, and are dropped).
			const settleList = async () =>
				await persist(
					context,
					async () =>
						await settle(
							context,
							listId,
							hooks,
							registration?.listId === listId ? { baseline: registration.baseline } : {},
						),
				);
			let settleError: unknown;
			await settleList().catch((error: unknown) => (settleError = error));
			for (const hook of hooks) {
				try {
					await persist(context, async () => await deleteWebhook(context, hook.webhookId));
				} catch (error) {
					problems.push(`webhook ${hook.webhookId} could not be deleted (${describe(error)})`);
				}
			}
			if (settleError === undefined)
				await settleList().catch((error: unknown) => (settleError = error));
			const unwired = settleError === undefined;
			if (!unwired) {
				problems.push(
					`the automation of list ${listId} could not be written (${describe(settleError)})`,
				);
				stillFiring = true;
				// Left-over webhooks without a registration: whether their automation charges is not known here.
				const charges =
					registration?.listId === listId ? await mayStillCharge(context, registration) : true;
				if (charges && registration?.listId === listId && !monitoringPaused) {
					try {
						await persist(context, async () => await setMonitoring(context, listId, 0));
						monitoringPaused = true;
					} catch (error) {
						problems.push(
							`monitoring of list ${listId} could not be turned off either ` +
								`(${describe(error)})`,
						);
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
					problems.push(
						`monitoring of list ${listId}, turned off by an earlier ` +
							`deactivation, could not be turned on again (${describe(error)})`,
					);
				}
			}
		});
	}

	// Its list unknown: a registration whose answer was lost, never wired (wiring waits for its ID), so only deleted.
	for (const webhookId of listless) {
		try {
			await persist(context, async () => await deleteWebhook(context, webhookId));
		} catch (error) {
			problems.push(`webhook ${webhookId} could not be deleted (${describe(error)})`);
		}
	}
	if (registration)
		redeliveries.forget(
			redeliveryKey(context.getWorkflow().id, context.getNode().id, registration.webhookId),
		);
	if (problems.length === 0) {
		delete registrations[slot];
		return;
	}
	const listId = registration?.listId ?? [...leaving.keys()][0];
	const safety = monitoringPaused
		? `Monitoring of list ${listId} was turned off so that its automation cannot charge ` +
			`for this trigger; it is turned on again once the clean-up is finished.`
		: !stillFiring
			? 'The automation no longer fires for this trigger.'
			: chargeRisk
				? `The automation of list ${listId} may still fire, and charge, for this trigger.`
				: `The automation of list ${listId} may still fire for this trigger, but ` +
					`buys nothing when it does.`;
	const message =
		`PropRadar Trigger: the clean-up of ${listId === undefined ? 'its webhooks' : `list ${listId}`} ` +
		`could not finish: ` +
		`${problems.join('; ')}`;
	const description = `${safety} Activating or deactivating this workflow again finishes the clean-up.`;
	if (registration)
		registrations[slot] = {
			...registration,
			unfinished: { reason: problems.join('; '), monitoringPaused },
		};
	context.logger.error(`${message}. ${description}`, {
		workflowId: context.getWorkflow().id,
		node: context.getNode().name,
		listId,
	});
	throw new NodeOperationError(context.getNode(), message, { description });
}

async function mayStillCharge(
	context: IHookFunctions,
	registration: Registration,
): Promise<boolean> {
	let automation: AutomationRecord;
	try {
		automation = await readAutomation(context, registration.listId);
	} catch {
		return registration.charging;
	}
	if (chargingActions(automation).length === 0 || Number(automation.isEnabled) !== 1) return false;
	// Without this trigger the automation would fire for the baseline's triggers (if it was on) and the other triggers' events.
	const firingWithout =
		registration.baseline.isEnabled === 1
			? triggerSet(registration.baseline.triggers)
			: new Set<string>();
	let webhooks: WebhookRecord[] = [];
	try {
		webhooks = await readWebhooks(context);
	} catch {
		return true;
	}
	for (const hook of triggerHooksOf(webhooks, registration.listId)) {
		if (
			hook.webhookId === registration.webhookId ||
			!idsFrom(automation.ExportToWebhookIDs).includes(String(hook.webhookId))
		)
			continue;
		for (const event of hook.events) firingWithout.add(TRIGGER_EVENTS[event]);
	}
	return [...triggerSet(automation.Triggers)].some((trigger) => !firingWithout.has(trigger));
}

/** Nothing secret: the transport redacts. */
function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
