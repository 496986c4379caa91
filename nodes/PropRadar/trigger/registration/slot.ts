import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getConnection } from '../../transport';
import type { Baseline, TriggerEvent } from '../wiring';

export interface TriggerSettings {
	listId: number;
	events: TriggerEvent[];
	allowChargingAutomation: boolean;
}

export interface Registration {
	webhookId: number;
	listId: number;
	hookUrl: string;
	/** No secret by itself: the delivery secret is derived from it and the access token (`deliverySecret`). */
	secretSalt: string;
	events: TriggerEvent[];
	baseline: Baseline;
	/** Whether the automation had actions that charge when this trigger was wired. */
	charging: boolean;
	/** Wiring unconfirmed, or a deactivation unfinished: `checkExists` never reports it as existing, and the
	 * next `create` or `delete` finishes the clean-up. */
	unfinished?: {
		/** Why, in words (no secret). */
		reason: string;
		/** Monitoring of the list was turned off so that its automation cannot charge; turned on again once finished. */
		monitoringPaused?: boolean;
	};
}

// `/webhook` or `/webhook-test`: both can be registered at once, each in its own slot. A new host name
// (a changed `WEBHOOK_URL`) keeps the slot, so the old registration is replaced, not orphaned.
export function registrationSlot(hookUrl: string, webhookId: string | undefined): string {
	const path = urlPath(hookUrl);
	const marker = webhookId ? path.indexOf(`/${webhookId}/`) : -1;
	return marker >= 0 ? path.slice(0, marker) : path;
}

export function urlPath(url: string): string {
	return String(url ?? '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
}

/** Read only: a delivery changes nothing in the static data. */
export function liveRegistrations(staticData: IDataObject): Registration[] {
	const registrations = staticData.registrations;
	return typeof registrations === 'object' && registrations !== null
		? Object.values(registrations as Record<string, Registration>)
		: [];
}

export function slotOf(context: IHookFunctions): {
	hookUrl: string;
	slot: string;
	registrations: Record<string, Registration>;
} {
	const hookUrl = context.getNodeWebhookUrl('default');
	if (!hookUrl)
		throw new NodeOperationError(context.getNode(), 'n8n gave this trigger no webhook URL');
	const staticData = context.getWorkflowStaticData('node');
	if (typeof staticData.registrations !== 'object' || staticData.registrations === null)
		staticData.registrations = {};
	const registrations = staticData.registrations as Record<string, Registration>;
	return { hookUrl, slot: registrationSlot(hookUrl, context.getNode().webhookId), registrations };
}

const listQueues = new Map<string, Promise<unknown>>();

// Module-level on purpose: activations of several workflows on one list overlap in one n8n process, and no
// run's state spans them. One list's work at a time here; across processes, `settle` makes writes converge.
export async function oneAtATime<T>(
	context: IHookFunctions,
	listId: number,
	work: () => Promise<T>,
): Promise<T> {
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
