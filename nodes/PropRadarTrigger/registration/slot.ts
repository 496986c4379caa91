import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getConnection } from '../../PropRadar/transport';
import type { Baseline, TriggerEvent } from '../wiring';

/** Where the trigger keeps what it registered (one slot per kind of URL), and one list's work at a time. */

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
export function urlPath(url: string): string {
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

export function slotOf(context: IHookFunctions): { hookUrl: string; slot: string; registrations: Record<string, Registration> } {
	const hookUrl = context.getNodeWebhookUrl('default');
	if (!hookUrl) throw new NodeOperationError(context.getNode(), 'n8n gave this trigger no webhook URL');
	return { hookUrl, slot: registrationSlot(hookUrl, context.getNode().webhookId), registrations: registrationsOf(context.getWorkflowStaticData('node')) };
}

const listQueues = new Map<string, Promise<unknown>>();

/**
 * Runs the work on one list's automation after every earlier one on the same list in this process
 * has finished. Across processes the settling (see `settle`) makes the writes converge.
 */
export async function oneAtATime<T>(context: IHookFunctions, listId: number, work: () => Promise<T>): Promise<T> {
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
