import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readCeiling } from '../../money';
import { idsFrom } from '../../shared/parameters';
import { TRIGGER_EVENTS } from '../../shared/vocabulary';
import { CREDENTIAL_TYPE, type AutomationRecord } from '../../transport';
import { chargingActions, triggerSet, wiringAddsFiring } from '../wiring';
import { readAutomation } from '../../shared/answers';
import { readWebhooks, triggerHooksOf } from './settle';
import type { Registration, TriggerSettings } from './slot';

// Activation refuses, with nothing registered, to make an automation fire that charges, unless allowed.
export async function chargingRefusal(
	context: IHookFunctions,
	settings: TriggerSettings,
	automation: AutomationRecord,
): Promise<NodeOperationError | undefined> {
	const charging = chargingActions(automation);
	if (charging.length === 0 || !wiringAddsFiring(automation, settings.events)) return undefined;
	const refusal = (message: string, advice: string) =>
		new NodeOperationError(context.getNode(), `List ${settings.listId}: ${message}`, {
			description:
				`Its automation would ${charging.join(', ')} for every property that triggers it, and ` +
				`this trigger would make it fire. Nothing was registered and nothing was charged. ${advice}`,
		});
	const credential = await context.getCredentials<{
		spendingCeiling?: unknown;
		allowChargingAutomations?: unknown;
	}>(CREDENTIAL_TYPE);
	const ceiling = readCeiling(
		context,
		credential.spendingCeiling,
		'Nothing was registered and nothing was charged.',
	);
	if (ceiling !== undefined && credential.allowChargingAutomations !== true) {
		return refusal(
			'the PropRadar credential does not allow charging automations',
			'The credential has a spending ceiling, and an automation charges inside PropRadar, outside ' +
				'any node run, where no ceiling bounds it. The owner of the credential can turn on its ' +
				'option "Allow Charging Automations" if the charges are intended; otherwise remove those ' +
				'actions from the automation.',
		);
	}
	if (settings.allowChargingAutomation) return undefined;
	return refusal(
		`its automation would ${charging.join(', ')} for each triggering property`,
		'Remove those actions from the automation, or turn on the option "Allow Charging Automation" ' +
			'if the charges are intended.',
	);
}

// Whether the automation, left wired to this trigger, would still fire and charge for it.
export async function mayStillCharge(
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
