import { NodeApiError, NodeOperationError, sleep, type IHookFunctions } from 'n8n-workflow';

import { readAutomation } from '../../shared/answers';
import { idsFrom } from '../../shared/parameters';
import { TRIGGER_EVENTS } from '../../shared/vocabulary';
import { apiRequest, paths, toNodeError, type WebhookRecord } from '../../transport';
import { redeliveries, redeliveryKey } from '../webhook';
import {
	chargingActions,
	listIdInName,
	parseWebhookName,
	triggerSet,
	type TriggerHook,
} from '../wiring';
import {
	isNotFound,
	oneAtATime,
	ownHooks,
	readWebhooks,
	settle,
	slotOf,
	triggerHooksOf,
	type Registration,
} from './settle';

interface CleanUp {
	registration: Registration | undefined;
	problems: string[];
	monitoringPaused: boolean;
	stillFiring: boolean;
	chargeRisk: boolean;
}

// Pauses between rounds of a clean-up step that failed transiently, on top of the transport's own retries.
const TEARDOWN_PAUSES_MS = [500, 2_000];

// Runs a step that is safe to repeat again after a transient failure, with growing pauses.
async function persist<T>(context: IHookFunctions, step: () => Promise<T>): Promise<T> {
	for (let round = 0; ; round++) {
		try {
			return await step();
		} catch (error) {
			const code = error instanceof NodeApiError ? (error.httpCode ?? '') : undefined;
			const transient = code === '' || code === '429' || Number(code) >= 500;
			if (round >= TEARDOWN_PAUSES_MS.length || !transient)
				throw toNodeError(context.getNode(), error);
			await sleep(TEARDOWN_PAUSES_MS[round]);
		}
	}
}

function webhooksByList(registration: Registration | undefined, leftovers: WebhookRecord[]) {
	const byList = new Map<number, TriggerHook[]>();
	const add = (listId: number, hook: TriggerHook) =>
		byList.set(listId, [...(byList.get(listId) ?? []), hook]);
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
	return { byList, listless };
}

async function deleteEach(context: IHookFunctions, webhookIds: number[], cleanUp: CleanUp) {
	for (const webhookId of webhookIds) {
		try {
			await persist(context, async () => {
				const path = paths.webhook(webhookId);
				await apiRequest(context, { method: 'DELETE', path, repeatable: true }).catch(
					(error: unknown) => {
						if (!isNotFound(error)) throw error;
					},
				);
			});
		} catch (error) {
			cleanUp.problems.push(`webhook ${webhookId} could not be deleted (${describe(error)})`);
		}
	}
}

async function switchMonitoring(
	context: IHookFunctions,
	listId: number,
	on: boolean,
	cleanUp: CleanUp,
): Promise<boolean> {
	try {
		const body = { isMonitored: on ? 1 : 0 };
		await persist(context, async () => {
			await apiRequest(context, {
				method: 'PATCH',
				path: paths.list(listId),
				body,
				repeatable: true,
			});
		});
		cleanUp.monitoringPaused = !on;
		return true;
	} catch (error) {
		cleanUp.problems.push(
			`monitoring of list ${listId} could not be turned ${on ? 'on' : 'off'} (${describe(error)})`,
		);
		return false;
	}
}

// Unwired, deleted, then settled again: another process may have wired them meanwhile.
async function cleanList(
	context: IHookFunctions,
	listId: number,
	hooks: TriggerHook[],
	cleanUp: CleanUp,
): Promise<void> {
	const { registration } = cleanUp;
	const own = registration?.listId === listId ? registration : undefined;
	const settleList = async () =>
		await persist(
			context,
			async () => await settle(context, listId, hooks, own ? { baseline: own.baseline } : {}),
		);
	let settleError: unknown;
	await settleList().catch((error: unknown) => (settleError = error));
	await deleteEach(
		context,
		hooks.map((hook) => hook.webhookId),
		cleanUp,
	);
	if (settleError === undefined)
		await settleList().catch((error: unknown) => (settleError = error));
	if (settleError === undefined) {
		if (own && cleanUp.monitoringPaused) await switchMonitoring(context, listId, true, cleanUp);
		return;
	}
	cleanUp.problems.push(
		`the automation of list ${listId} could not be written (${describe(settleError)})`,
	);
	cleanUp.stillFiring = true;
	// Left-over webhooks without a registration: whether their automation charges is not known here.
	const charges = own ? await mayStillCharge(context, own) : true;
	if (!charges || cleanUp.monitoringPaused) return;
	if (!own || !(await switchMonitoring(context, listId, false, cleanUp))) cleanUp.chargeRisk = true;
}

function safetyOf(cleanUp: CleanUp, listId: number | undefined): string {
	if (cleanUp.monitoringPaused)
		return `Monitoring of list ${listId} was turned off so that its automation cannot charge for this trigger; it is turned on again once the clean-up is finished.`;
	if (!cleanUp.stillFiring) return 'The automation no longer fires for this trigger.';
	return cleanUp.chargeRisk
		? `The automation of list ${listId} may still fire, and charge, for this trigger.`
		: `The automation of list ${listId} may still fire for this trigger, but buys nothing when it does.`;
}

// Still charging and not writable: monitoring is paused and the registration stays, marked unfinished.
export async function unregister(context: IHookFunctions): Promise<void> {
	const { hookUrl, slot, registrations } = slotOf(context);
	const registration = registrations[slot];
	const leftovers = ownHooks(
		await persist(context, async () => await readWebhooks(context)),
		hookUrl,
		registration?.webhookId,
	);
	if (!registration && leftovers.length === 0) return;
	const { byList, listless } = webhooksByList(registration, leftovers);
	const cleanUp: CleanUp = {
		registration,
		problems: [],
		monitoringPaused: registration?.unfinished?.monitoringPaused === true,
		stillFiring: false,
		chargeRisk: false,
	};
	for (const [listId, hooks] of byList)
		await oneAtATime(context, listId, async () => await cleanList(context, listId, hooks, cleanUp));
	// Its list unknown: a registration whose answer was lost, never wired (wiring waits for its ID), so only deleted.
	await deleteEach(context, listless, cleanUp);
	if (registration)
		redeliveries.forget(
			redeliveryKey(context.getWorkflow().id, context.getNode().id, registration.webhookId),
		);
	if (cleanUp.problems.length === 0) {
		delete registrations[slot];
		return;
	}
	const listId = registration?.listId ?? [...byList.keys()][0];
	const reason = cleanUp.problems.join('; ');
	const message = `PropRadar Trigger: the clean-up of ${listId === undefined ? 'its webhooks' : `list ${listId}`} could not finish`;
	const description = `${reason[0].toUpperCase()}${reason.slice(1)}. ${safetyOf(cleanUp, listId)} Activating or deactivating this workflow again finishes the clean-up.`;
	if (registration)
		registrations[slot] = {
			...registration,
			unfinished: { reason, monitoringPaused: cleanUp.monitoringPaused },
		};
	context.logger.error(`${message}. ${description}`, {
		workflowId: context.getWorkflow().id,
		node: context.getNode().name,
		listId,
	});
	throw new NodeOperationError(context.getNode(), message, { description });
}

// Nothing secret: the transport redacts.
function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

// Whether the automation, left wired to this trigger, would still fire and charge for it.
async function mayStillCharge(
	context: IHookFunctions,
	registration: Registration,
): Promise<boolean> {
	const automation = await readAutomation(context, registration.listId).catch(() => undefined);
	if (!automation) return registration.charging;
	if (chargingActions(automation).length === 0 || Number(automation.isEnabled) !== 1) return false;
	// Without this trigger the automation would fire for the baseline's triggers (if it was on) and the other triggers' events.
	const firingWithout =
		registration.baseline.isEnabled === 1
			? triggerSet(registration.baseline.triggers)
			: new Set<string>();
	const webhooks = await readWebhooks(context).catch(() => undefined);
	if (!webhooks) return true;
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
