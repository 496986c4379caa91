import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { accessToken } from '../transport';
import { parseDelivery } from './body';
import { bearerMatches, deliverySecret, deliverySettingsOf, sortDelivered } from './delivery';
import { redeliveries, redeliveryKey } from './redelivery';
import { liveRegistrations } from './registration';

/** When each trigger node last warned of a refused delivery: once in a while, not for every one a stranger sends. */
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
		`PropRadar Trigger refused a delivery whose Authorization does not carry this ` +
			`trigger's secret (401; nothing started), in workflow ${workflowId}, node "${node}". ` +
			"The secret is derived from the credential's access token. If the token changed since " +
			'the workflow was published, publish the workflow again (deactivate and activate it). ' +
			'Otherwise the delivery did not come from PropRadar.',
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
			`PropRadar Trigger passed over ${unknown} event${unknown === 1 ? '' : 's'} of a kind it ` +
				`does not know, ${said}: Change Kinds is chosen, so only those kinds start the workflow`,
			{ workflowId, node },
		);
	if (notChosen > 0)
		context.logger.debug(
			`PropRadar Trigger passed over ${notChosen} event(s) not chosen in Events or Change Kinds, ${said}`,
			{ workflowId, node },
		);
}

/** One delivery: the secret, the body, the user's choice of events, then the redelivery window. */
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
	// n8n answers 200 once the execution is created, 500 when that failed (docs/design.md). It ends its
	// answer even after the service hung up, and then only 'prefinish' is emitted, not 'finish'.
	const response = context.getResponseObject();
	response.once('prefinish', () =>
		redeliveries.settle(triggerKey, fresh, response.statusCode < 300),
	);
	const items = settings.splitIntoItems ? fresh : [{ events: fresh }];
	return { workflowData: [context.helpers.returnJsonArray(items)] };
}
