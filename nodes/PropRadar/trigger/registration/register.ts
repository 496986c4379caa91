import { randomBytes } from 'node:crypto';

import { NodeOperationError, type IDataObject, type IHookFunctions } from 'n8n-workflow';

import { readCeiling } from '../../money';
import { readAutomation, unreadableWebhookId, webhookIdOf } from '../../shared/answers';
import { idsFrom, readTriggerListId } from '../../shared/parameters';
import { switchProblem } from '../../shared/triggerOptions';
import {
	accessToken,
	apiRequest,
	getConnection,
	paths,
	readList,
	refusedByService,
	toNodeError,
	type AutomationRecord,
} from '../../transport';
import { deliverySecret, deliverySettingsOf, sameSecret } from '../delivery';
import {
	chargingActions,
	formatWebhookName,
	isTriggerWebhookName,
	parseWebhookName,
	sortEvents,
	wiringAddsFiring,
} from '../wiring';
import {
	automationOf,
	listBaseline,
	oneAtATime,
	ownHooks,
	readWebhooks,
	settle,
	slotOf,
	triggerHooksOf,
} from './settle';
import { unregister } from './unregister';

function readSettings(context: IHookFunctions) {
	const listId = readTriggerListId(context);
	const { events } = deliverySettingsOf(context).filter;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const allowChargingAutomation = options.allowChargingAutomation ?? false;
	const problem = switchProblem('Allow Charging Automation', allowChargingAutomation);
	if (problem) throw new NodeOperationError(context.getNode(), problem);
	return { listId, events, allowChargingAutomation: allowChargingAutomation === true };
}

type TriggerSettings = ReturnType<typeof readSettings>;

// `checkExists`: the registration is whole, its webhook exists with this URL, none is left over, it is wired.
export async function registrationIsLive(context: IHookFunctions): Promise<boolean> {
	const { hookUrl, slot, registrations } = slotOf(context);
	const registration = registrations[slot];
	if (!registration || registration.unfinished) return false;
	const settings = readSettings(context);
	if (registration.listId !== settings.listId || registration.hookUrl !== hookUrl) return false;
	if (sortEvents(registration.events).join() !== settings.events.join()) return false;

	const webhooks = await readWebhooks(context, { withSecrets: true });
	const own = ownHooks(webhooks, hookUrl, registration.webhookId);
	if (
		own.length !== 1 ||
		Number(own[0].WebhookID) !== registration.webhookId ||
		own[0].HookUrl !== hookUrl
	)
		return false;
	// After the credential's token changed, the secret derived now differs from PropRadar's: registering anew hands it over.
	const secret = deliverySecret(await accessToken(context), registration.secretSalt);
	if (!sameSecret(String(own[0].Secret ?? ''), secret)) return false;
	const automation = await automationOf(context, registration.listId);
	if (!automation) return false;
	const wired = idsFrom(automation.ExportToWebhookIDs).includes(String(registration.webhookId));
	return wired && !wiringAddsFiring(automation, registration.events);
}

// First finishes what an earlier registration left; refuses, registering nothing, charging not allowed.
export async function register(context: IHookFunctions): Promise<void> {
	const settings = readSettings(context);
	await unregister(context);
	try {
		await oneAtATime(context, settings.listId, async () => await wire(context, settings));
	} catch (error) {
		// Whatever got registered goes again now; what cannot go yet stays marked for the next run.
		await unregister(context).catch(() => undefined);
		throw toNodeError(context.getNode(), error);
	}
}

async function baselineFor(context: IHookFunctions, settings: TriggerSettings) {
	const { listId } = settings;
	const list = await readList(context, listId);
	if (Number(list?.isMonitored) === 0) {
		throw new NodeOperationError(
			context.getNode(),
			`List ${listId} is not monitored, so its automation never fires`,
			{
				description:
					'Nothing was registered. Turn monitoring on for the list (PropRadar > List > Update, Monitored), then activate again.',
			},
		);
	}
	const automation = await readAutomation(context, listId);
	await refuseCharging(context, settings, automation);
	const webhooks = await readWebhooks(context);
	const unreadable = webhooks.find(
		(hook) =>
			idsFrom(automation.ExportToWebhookIDs).includes(String(hook.WebhookID)) &&
			isTriggerWebhookName(hook.WebhookName) &&
			parseWebhookName(hook.WebhookName) === undefined,
	);
	// Wired on top of it, this trigger would take the automation as that trigger left it for the baseline.
	if (unreadable)
		throw new NodeOperationError(
			context.getNode(),
			`List ${listId}: another PropRadar Trigger's webhook (${String(unreadable.WebhookID)}) is wired to its automation`,
			{
				description:
					"Nothing was registered. PropRadar shortened or changed that webhook's name, so it no longer says how the automation was. Deactivate the workflow that holds that trigger, then activate this one.",
			},
		);
	// Another trigger on the list already changed the automation: the baseline is the one its name gives.
	return { automation, baseline: listBaseline(automation, triggerHooksOf(webhooks, listId)) };
}

async function wire(context: IHookFunctions, settings: TriggerSettings): Promise<void> {
	const { listId, events } = settings;
	const { hookUrl, slot, registrations } = slotOf(context);
	const { automation, baseline } = await baselineFor(context, settings);
	const secretSalt = randomBytes(32).toString('hex');
	const secret = deliverySecret(await accessToken(context), secretSalt);
	if (secret === '')
		throw new NodeOperationError(context.getNode(), 'The PropRadar credential has no access token');
	const webhookId = await createWebhook(context, {
		HookUrl: hookUrl,
		WebhookName: formatWebhookName({ listId, events, baseline }),
		Secret: secret,
	});

	// Remembered as unfinished before the wiring: n8n runs `delete` after a failed `create`, which takes it out.
	registrations[slot] = {
		webhookId,
		listId,
		hookUrl,
		secretSalt,
		events,
		baseline,
		charging: chargingActions(automation).length > 0,
		unfinished: { reason: 'the webhook was registered but not yet wired' },
	};
	const settled = await settle(context, listId, [], { own: { webhookId, events }, baseline });
	if (!settled || !idsFrom(settled.ExportToWebhookIDs).includes(String(webhookId))) {
		throw new NodeOperationError(
			context.getNode(),
			`List ${listId}: the webhook could not be wired into its automation`,
		);
	}
	delete registrations[slot].unfinished;
}

async function createWebhook(
	context: IHookFunctions,
	body: { HookUrl: string; WebhookName: string; Secret: string },
): Promise<number> {
	// A lost answer may still have created it: found by URL and secret (random, so its own), it is adopted.
	const findCreated = async () => {
		const records = await readWebhooks(context, { withSecrets: true }).catch(() => []);
		const match = records.find(
			(hook) => hook.HookUrl === body.HookUrl && hook.Secret === body.Secret,
		);
		return match ? Number(match.WebhookID) : undefined;
	};
	let created: unknown;
	try {
		created = await apiRequest<unknown>(context, {
			method: 'POST',
			path: paths.webhooks(),
			body,
		});
	} catch (error) {
		// A refusal by the service created nothing; any other failure may have.
		if (refusedByService(error)) throw toNodeError(context.getNode(), error);
		const adopted = await findCreated();
		if (adopted === undefined) throw toNodeError(context.getNode(), error);
		return adopted;
	}
	const webhookId = webhookIdOf(created) ?? (await findCreated());
	if (webhookId === undefined)
		throw unreadableWebhookId(
			context.getNode(),
			created,
			`Nothing was wired. The webhook "${body.WebhookName}" for ${body.HookUrl} may exist in PropRadar without this trigger knowing its ID. This activation and the next deactivation delete it, found by its URL and name; if Webhook > Get Many still shows it, delete it (Webhook > Delete).`,
		);
	return webhookId;
}

// Activation refuses, with nothing registered, to make an automation fire that charges, unless allowed.
async function refuseCharging(
	context: IHookFunctions,
	settings: TriggerSettings,
	automation: AutomationRecord,
): Promise<void> {
	const charging = chargingActions(automation);
	if (charging.length === 0 || !wiringAddsFiring(automation, settings.events)) return;
	const refusal = (message: string, advice: string) =>
		new NodeOperationError(context.getNode(), `List ${settings.listId}: ${message}`, {
			description: `Its automation would ${charging.join(', ')} for every property that triggers it, and this trigger would make it fire. Nothing was registered and nothing was charged. ${advice}`,
		});
	const { spendingCeiling, allowChargingAutomations } = await getConnection(context);
	const ceiling = readCeiling(
		context,
		spendingCeiling,
		'Nothing was registered and nothing was charged.',
	);
	if (ceiling !== undefined && !allowChargingAutomations) {
		throw refusal(
			'the PropRadar credential does not allow charging automations',
			'The credential has a spending ceiling, and an automation charges inside PropRadar, outside any node run, where no ceiling bounds it. The owner of the credential can turn on its option "Allow Charging Automations" if the charges are intended; otherwise remove those actions from the automation.',
		);
	}
	if (settings.allowChargingAutomation) return;
	throw refusal(
		`its automation would ${charging.join(', ')} for each triggering property`,
		'Remove those actions from the automation, or turn on the option "Allow Charging Automation" if the charges are intended.',
	);
}
