import type { IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import {
	apiRequest,
	collectPages,
	paths,
	toNodeError,
	type AutomationRecord,
	type WebhookRecord,
} from '../../transport';
import { fieldNames, PAGE_LIMITS, WEBHOOK_FIELDS } from '../../shared/vocabulary';
import {
	baselineOf,
	isTriggerWebhookName,
	parseWebhookName,
	removeWebhookId,
	settleAutomation,
	type Baseline,
	type TriggerHook,
	type TriggerWebhookName,
} from '../wiring';
import { readAutomation } from '../../shared/answers';
import { urlPath } from './slot';

/** Writes of one list's automation before giving up on it settling (other processes keep changing it). */
const MAX_SETTLE_WRITES = 6;
/** Pauses between rounds of a clean-up step that failed transiently, on top of the transport's own retries. */
const TEARDOWN_PAUSES_MS = [500, 2_000];

export async function readWebhooks(
	context: IHookFunctions,
	{ withSecrets = false } = {},
): Promise<WebhookRecord[]> {
	const fields = fieldNames(
		WEBHOOK_FIELDS,
		'WebhookID',
		'HookUrl',
		'WebhookName',
		...(withSecrets ? (['Secret'] as const) : []),
	);
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

/** The list's automation; undefined when the list is gone. */
export async function automationOf(
	context: IHookFunctions,
	listId: number,
): Promise<AutomationRecord | undefined> {
	return await readAutomation(context, listId).catch((error: unknown) => {
		if (isNotFound(error)) return undefined;
		throw toNodeError(context.getNode(), error);
	});
}

function isTransient(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const code = error.httpCode;
	return (
		code === null || code === undefined || code === '' || code === '429' || Number(code) >= 500
	);
}

/** Runs a step that is safe to repeat again after a transient failure, with growing pauses. */
export async function persist<T>(context: IHookFunctions, step: () => Promise<T>): Promise<T> {
	for (let round = 0; ; round++) {
		try {
			return await step();
		} catch (error) {
			if (round >= TEARDOWN_PAUSES_MS.length || !isTransient(error))
				throw toNodeError(context.getNode(), error);
			await sleep(TEARDOWN_PAUSES_MS[round]);
		}
	}
}

/** The list's trigger webhooks whose names can be read (those of other workflows, and older registrations). */
export function triggerHooksOf(
	webhooks: WebhookRecord[],
	listId: number,
): Array<TriggerHook & { baseline: TriggerWebhookName['baseline'] }> {
	return webhooks.flatMap((hook) => {
		const parsed = parseWebhookName(hook.WebhookName);
		return parsed && parsed.listId === listId
			? [{ webhookId: Number(hook.WebhookID), events: parsed.events, baseline: parsed.baseline }]
			: [];
	});
}

/**
 * The baseline the list's other triggers' names give; the automation as it is when none does. A name
 * without the baseline's webhook IDs (all but the oldest) leaves them to be read off the automation:
 * its IDs but those of trigger webhooks, which were appended to them.
 */
export function listBaseline(
	automation: AutomationRecord,
	named: Array<TriggerHook & { baseline: TriggerWebhookName['baseline'] }>,
	triggerIds: Iterable<number> = named.map((hook) => hook.webhookId),
): Baseline {
	if (!named[0]) return baselineOf(automation);
	let webhookIds = String(automation.ExportToWebhookIDs ?? '');
	for (const id of triggerIds) webhookIds = removeWebhookId(webhookIds, id);
	return { ...named[0].baseline, webhookIds: named[0].baseline.webhookIds ?? webhookIds };
}

/**
 * This trigger's webhooks: the one its registration names, found by ID whatever its name, and, by
 * name, any other at its URL whose name begins as a trigger's (a registration whose answer was lost,
 * or one kept by an earlier version).
 */
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

/** What `settle` knows from the static data: this trigger's webhook (staying while it exists) and the baseline it kept. */
export interface Remembered {
	own?: TriggerHook;
	baseline?: Baseline;
}

// Reads again after each write until a read needs no write. The write replaces the whole automation
// with the same body each time, so it is repeatable. Undefined when the list is gone.
export async function settle(
	context: IHookFunctions,
	listId: number,
	leaving: TriggerHook[],
	remembered: Remembered = {},
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
				`List ${listId}: its automation kept changing while this trigger wired it ` +
					`(another process writing it); try again`,
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
