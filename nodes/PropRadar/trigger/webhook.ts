import { createHash } from 'node:crypto';

import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { accessToken } from '../transport';
import {
	bearerMatches,
	deliverySecret,
	deliverySettingsOf,
	parseDelivery,
	sortDelivered,
} from './delivery';
import { liveRegistrations } from './registration/settle';

const MAX_REMEMBERED = 10_000;

// n8n answers once the execution is created or failed to be: past this it is taken as started.
export const ANSWER_WAIT_MS = 120_000;

const hashOf = (event: IDataObject) =>
	createHash('sha256').update(JSON.stringify(event), 'utf8').digest('base64');

// answerBy: until when n8n's answer to the admitting delivery is awaited; 0 once it started the execution.
interface Remembered {
	expires: number;
	answerBy: number;
}

// A redelivery within the window is dropped once n8n started the first, admitted again if it could not.
export class RedeliveryWindow {
	private readonly seen = new Map<string, Map<string, Remembered>>();

	admit(
		triggerKey: string,
		events: IDataObject[],
		windowMs: number,
		now: number,
	): { fresh: IDataObject[] } | { unsettled: true } {
		if (windowMs <= 0) return { fresh: events };
		const seen = this.seen.get(triggerKey) ?? new Map<string, Remembered>();
		this.seen.set(triggerKey, seen);
		for (const [hash, remembered] of seen) {
			if (remembered.expires > now) break;
			seen.delete(hash);
		}
		const hashes = events.map(hashOf);
		for (const hash of hashes) {
			const remembered = seen.get(hash);
			if (remembered && remembered.expires > now && remembered.answerBy > now)
				return { unsettled: true };
		}
		const fresh: IDataObject[] = [];
		hashes.forEach((hash, index) => {
			const remembered = seen.get(hash);
			if (remembered && remembered.expires > now) return;
			seen.delete(hash);
			seen.set(hash, { expires: now + windowMs, answerBy: now + ANSWER_WAIT_MS });
			fresh.push(events[index]);
		});
		while (seen.size > MAX_REMEMBERED) seen.delete(seen.keys().next().value as string);
		return { fresh };
	}

	// Not started: the events are forgotten, so that their redelivery is admitted again.
	settle(triggerKey: string, events: IDataObject[], started: boolean): void {
		const seen = this.seen.get(triggerKey);
		if (!seen) return;
		for (const event of events) {
			const hash = hashOf(event);
			const remembered = seen.get(hash);
			if (!remembered) continue;
			if (started) remembered.answerBy = 0;
			else seen.delete(hash);
		}
	}

	forget(triggerKey: string): void {
		this.seen.delete(triggerKey);
	}
}

export const redeliveries = new RedeliveryWindow();

export function redeliveryKey(
	workflowId: string | undefined,
	nodeId: string,
	webhookId: number,
): string {
	return `${workflowId ?? ''}/${nodeId}/${webhookId}`;
}

// When each trigger node last warned of a refused delivery: not for every one a stranger sends.
const refusalWarnings = new Map<string, number>();
const REFUSAL_WARNING_EVERY_MS = 10 * 60_000;
const MAX_REFUSAL_WARNINGS = 1_000;

function where(context: IWebhookFunctions) {
	return { workflowId: context.getWorkflow().id ?? '', node: context.getNode().name };
}

function warnOfRefusal(context: IWebhookFunctions): void {
	const { workflowId, node } = where(context);
	const key = `${workflowId}/${context.getNode().id}`;
	const now = Date.now();
	if ((refusalWarnings.get(key) ?? -Infinity) > now - REFUSAL_WARNING_EVERY_MS) return;
	refusalWarnings.delete(key);
	refusalWarnings.set(key, now);
	while (refusalWarnings.size > MAX_REFUSAL_WARNINGS)
		refusalWarnings.delete(refusalWarnings.keys().next().value as string);
	context.logger.warn(
		`PropRadar Trigger refused a delivery whose Authorization does not carry this trigger's secret (401; nothing started), in workflow ${workflowId}, node "${node}". The secret is derived from the credential's access token. If the token changed since the workflow was published, publish the workflow again (deactivate and activate it). Otherwise the delivery did not come from PropRadar.`,
		{ workflowId, node },
	);
}

function answer(
	context: IWebhookFunctions,
	status: number,
	message: string,
	retryAfter?: string,
): IWebhookResponseData {
	const response = context.getResponseObject();
	if (retryAfter !== undefined) response.setHeader('Retry-After', retryAfter);
	response.status(status).json({ message });
	return { noWebhookResponse: true };
}

function logPassedOver(context: IWebhookFunctions, unknown: number, notChosen: number): void {
	const { workflowId, node } = where(context);
	const said = `in workflow ${workflowId}, node "${node}"`;
	if (unknown > 0)
		context.logger.info(
			`PropRadar Trigger passed over ${unknown} event${unknown === 1 ? '' : 's'} of a kind it does not know, ${said}: Change Kinds is chosen, so only those kinds start the workflow`,
			{ workflowId, node },
		);
	if (notChosen > 0)
		context.logger.debug(
			`PropRadar Trigger passed over ${notChosen} event(s) not chosen in Events or Change Kinds, ${said}`,
			{ workflowId, node },
		);
}

export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	// Production and test registrations may both be live: a delivery carries the secret of one of them.
	const registrations = liveRegistrations(context.getWorkflowStaticData('node'));
	// n8n stores the registration only once `create` returns, but PropRadar may deliver as soon as it is wired.
	if (registrations.length === 0)
		return answer(context, 503, 'This trigger is not registered yet; deliver again later', '2');
	const authorization = context.getHeaderData().authorization;
	// The secrets are derived now: the static data holds only their salts (see `deliverySecret`).
	const token = await accessToken(context);
	const registration = registrations.find((candidate) =>
		bearerMatches(authorization, deliverySecret(token, candidate.secretSalt)),
	);
	if (!registration) {
		if (typeof authorization === 'string' && /^Bearer\s+\S/i.test(authorization))
			warnOfRefusal(context);
		return answer(context, 401, 'Authorization failed');
	}
	const delivery = parseDelivery(context.getRequestObject().body);
	if ('malformed' in delivery)
		return answer(context, 400, `${delivery.malformed}: expected JSON objects`);

	const settings = deliverySettingsOf(context);
	const sorted = sortDelivered(delivery.events, settings.filter);
	logPassedOver(context, sorted.unknown, sorted.notChosen);
	const triggerKey = redeliveryKey(
		context.getWorkflow().id,
		context.getNode().id,
		registration.webhookId,
	);
	const admission = redeliveries.admit(triggerKey, sorted.passed, settings.windowMs, Date.now());
	// Whether their execution started is not known yet: dropping them could lose them.
	if ('unsettled' in admission)
		return answer(
			context,
			503,
			'An earlier delivery of these events is still being started; deliver again later',
			'1',
		);
	const fresh = admission.fresh;
	if (fresh.length === 0)
		return { webhookResponse: { received: delivery.events.length, started: false } };
	// n8n answers 200 once the execution exists (docs/design.md); after a hang-up it emits only 'prefinish'.
	const response = context.getResponseObject();
	response.once('prefinish', () =>
		redeliveries.settle(triggerKey, fresh, response.statusCode < 300),
	);
	const items = settings.splitIntoItems ? fresh : [{ events: fresh }];
	return { workflowData: [context.helpers.returnJsonArray(items)] };
}
