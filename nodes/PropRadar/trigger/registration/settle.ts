import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { readAutomation } from '../../shared/answers';
import { fieldNames, PAGE_LIMITS, WEBHOOK_FIELDS } from '../../shared/vocabulary';
import {
	apiRequest,
	collectPages,
	getConnection,
	paths,
	toNodeError,
	type AutomationRecord,
	type WebhookRecord,
} from '../../transport';
import {
	baselineOf,
	isTriggerWebhookName,
	parseWebhookName,
	removeWebhookId,
	settleAutomation,
	type Baseline,
	type TriggerEvent,
	type TriggerHook,
	type TriggerWebhookName,
} from '../wiring';

export interface Registration {
	webhookId: number;
	listId: number;
	hookUrl: string;
	// No secret by itself: the delivery secret is derived from it and the access token (`deliverySecret`).
	secretSalt: string;
	events: TriggerEvent[];
	baseline: Baseline;
	// Whether the automation had actions that charge when this trigger was wired.
	charging: boolean;
	// Wiring unconfirmed or deactivation unfinished: never reported as existing; the next create or delete ends it.
	unfinished?: { reason: string; monitoringPaused?: boolean };
}

// One slot per path (`/webhook`, `/webhook-test`): a new host name replaces the registration, not orphans it.
export function registrationSlot(hookUrl: string, webhookId: string | undefined): string {
	const path = urlPath(hookUrl);
	const marker = webhookId ? path.indexOf(`/${webhookId}/`) : -1;
	return marker >= 0 ? path.slice(0, marker) : path;
}

function urlPath(url: string): string {
	return String(url ?? '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
}

// Read only: a delivery changes nothing in the static data.
export function liveRegistrations(staticData: IDataObject): Registration[] {
	const registrations = staticData.registrations;
	return typeof registrations === 'object' && registrations !== null
		? Object.values(registrations as Record<string, Registration>)
		: [];
}

export function slotOf(context: IHookFunctions) {
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

// Module-level: activations on one list overlap in one process; across processes `settle` converges.
export async function oneAtATime<T>(
	context: IHookFunctions,
	listId: number,
	work: () => Promise<T>,
): Promise<T> {
	const key = `${(await getConnection(context)).baseUrl} ${listId}`;
	const run = (listQueues.get(key) ?? Promise.resolve()).then(work);
	const done = run.catch(() => undefined);
	listQueues.set(key, done);
	try {
		return await run;
	} finally {
		if (listQueues.get(key) === done) listQueues.delete(key);
	}
}

// Writes of one list's automation before giving up on it settling (other processes keep changing it).
const MAX_SETTLE_WRITES = 6;

export async function readWebhooks(
	context: IHookFunctions,
	{ withSecrets = false } = {},
): Promise<WebhookRecord[]> {
	const secret = withSecrets ? (['Secret'] as const) : [];
	const fields = fieldNames(WEBHOOK_FIELDS, 'WebhookID', 'HookUrl', 'WebhookName', ...secret);
	const { records } = await collectPages<WebhookRecord>(
		context,
		{ method: 'GET', path: paths.webhooks(), qs: { Fields: fields } },
		{ pageSize: PAGE_LIMITS.webhooks.defaultLimit, untilEmpty: true },
	);
	return records;
}

export function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

export async function automationOf(
	context: IHookFunctions,
	listId: number,
): Promise<AutomationRecord | undefined> {
	return await readAutomation(context, listId).catch((error: unknown) => {
		if (isNotFound(error)) return undefined;
		throw toNodeError(context.getNode(), error);
	});
}

type NamedHook = TriggerHook & Pick<TriggerWebhookName, 'baseline'>;

export function triggerHooksOf(webhooks: WebhookRecord[], listId: number): NamedHook[] {
	return webhooks.flatMap((hook) => {
		const parsed = parseWebhookName(hook.WebhookName);
		return parsed && parsed.listId === listId
			? [{ webhookId: Number(hook.WebhookID), events: parsed.events, baseline: parsed.baseline }]
			: [];
	});
}

// The baseline other triggers' names give, else the automation; missing webhook IDs read off the automation.
export function listBaseline(
	automation: AutomationRecord,
	named: NamedHook[],
	triggerIds: Iterable<number> = named.map((hook) => hook.webhookId),
): Baseline {
	if (!named[0]) return baselineOf(automation);
	let webhookIds = String(automation.ExportToWebhookIDs ?? '');
	for (const id of triggerIds) webhookIds = removeWebhookId(webhookIds, id);
	return { ...named[0].baseline, webhookIds: named[0].baseline.webhookIds ?? webhookIds };
}

// The registration's webhook by ID, and any other at its URL named as a trigger's (a lost answer's).
export function ownHooks(
	webhooks: WebhookRecord[],
	hookUrl: string,
	registeredId?: number,
): WebhookRecord[] {
	return webhooks.filter(
		(hook) =>
			Number(hook.WebhookID) === registeredId ||
			(isTriggerWebhookName(hook.WebhookName) && urlPath(hook.HookUrl) === urlPath(hookUrl)),
	);
}

// Reads again after each (repeatable, whole) write until a read needs none.
export async function settle(
	context: IHookFunctions,
	listId: number,
	leaving: TriggerHook[],
	remembered: { own?: TriggerHook; baseline?: Baseline } = {},
): Promise<AutomationRecord | undefined> {
	const leavingIds = new Set(leaving.map((hook) => hook.webhookId));
	for (let writes = 0; ; writes++) {
		const automation = await automationOf(context, listId);
		if (!automation) return undefined;
		const webhooks = await readWebhooks(context);
		const named = triggerHooksOf(webhooks, listId);
		const { own } = remembered;
		const ownExists =
			own !== undefined &&
			!named.some((hook) => hook.webhookId === own.webhookId) &&
			webhooks.some((hook) => Number(hook.WebhookID) === own.webhookId);
		const listHooks: TriggerHook[] = ownExists ? [...named, own] : named;
		const staying = listHooks.filter((hook) => !leavingIds.has(hook.webhookId));
		const baseline =
			remembered.baseline ??
			listBaseline(automation, named, [...listHooks.map((hook) => hook.webhookId), ...leavingIds]);
		const next = settleAutomation({
			automation,
			baseline,
			staying,
			leaving,
			existingIds: new Set(webhooks.map((hook) => Number(hook.WebhookID))),
		});
		if (!next) return automation;
		if (writes >= MAX_SETTLE_WRITES) {
			throw new NodeOperationError(
				context.getNode(),
				`List ${listId}: its automation kept changing while this trigger wired it (another process writing it); try again`,
			);
		}
		await apiRequest(context, {
			method: 'PUT',
			path: paths.automation(listId),
			body: next,
			repeatable: true,
		});
	}
}
