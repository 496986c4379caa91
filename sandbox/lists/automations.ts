import type { AccountSpec } from '../accounts';
import { ACCOUNTS } from '../accounts';
import { charge } from '../charges';
import { ApiError } from '../errors';
import { getSearchable } from '../data/properties';
import { getPersons, personState } from '../data/persons';
import type { SandboxContext } from '../types';
import { webhooksState } from '../webhooks/registry';
import { deliver } from '../webhooks/delivery';
import { own } from '../store';
import { accountLists, hasMember, idList, userData, type StoredList } from './state';
import {
	AUTOMATION_FLAG_FIELDS,
	AUTOMATION_ID_FIELDS,
	AUTOMATION_LEVEL_MAX,
	DELIVERY_TRIGGER_TYPES,
	EMPTY_AUTOMATION,
	TRIGGER_EVENTS,
	TRIGGER_VALUES,
	type AutomationFields,
	type DeliveryTriggerType,
} from '../../nodes/PropRadar/shared/vocabulary';

/** What happened to a property in a list, as an automation sees it. */
export interface ListEvent {
	type: DeliveryTriggerType;
	propId: string;
	/** "<Field label>:<old>:<new>" for changes. */
	changes?: string[];
}

export interface OutboxEntry {
	at: string;
	accountId: string;
	ListID: number;
	action: string;
	PropID: string;
	detail?: string;
}

export function outbox(ctx: SandboxContext): OutboxEntry[] {
	return ctx.store.slice<OutboxEntry[]>('outbox', () => []);
}

/** Checks an automation body (PUT replaces the whole configuration) and returns it complete. */
export function validateAutomation(
	listId: number,
	body: Record<string, unknown>,
): AutomationFields {
	const bad = (message: string) => new ApiError(400, 'Invalid automation', message);
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(body)) {
		if (!Object.hasOwn(EMPTY_AUTOMATION, key))
			throw new ApiError(400, 'Unexpected payload field', `${key} is not an automation field`);
		out[key] = value;
	}
	for (const key of AUTOMATION_FLAG_FIELDS) {
		if (out[key] !== undefined && out[key] !== 0 && out[key] !== 1)
			throw bad(`${key} must be 0 or 1`);
	}
	if (out.Triggers !== undefined && typeof out.Triggers !== 'string')
		throw bad('Triggers must be a string');
	if (
		out.Triggers !== undefined &&
		out.Triggers !== '' &&
		!(TRIGGER_VALUES as readonly string[]).includes(out.Triggers as string)
	) {
		throw bad(`Triggers must be one of: ${TRIGGER_VALUES.join(' | ')}`);
	}
	for (const [key, zero] of [
		['SetInterestLevel', 'unsets interest'],
		['SetStatusLevel', 'sets status None'],
	] as const) {
		const max = AUTOMATION_LEVEL_MAX[key];
		const level = out[key];
		if (
			level !== undefined &&
			level !== null &&
			!(Number.isInteger(level) && (level as number) >= 0 && (level as number) <= max)
		) {
			throw bad(`${key} must be an integer from 0 to ${max} (0 ${zero}), or null to set nothing`);
		}
	}
	for (const key of AUTOMATION_ID_FIELDS) {
		if (out[key] === undefined) continue;
		if (
			typeof out[key] !== 'string' ||
			!/^(\s*[\w-]+\s*)(,\s*[\w-]+\s*)*$|^$/.test(out[key] as string)
		)
			throw bad(`${key} must be a comma-separated string of IDs`);
	}
	for (const key of ['AddToLists', 'RemoveFromLists'] as const) {
		if (out[key] !== undefined && idList(out[key] as string).includes(String(listId)))
			throw bad(`${key} must not include the list itself (${listId})`);
	}
	for (const key of ['DirectMailOrderID', 'EmailMarketingOrderID'] as const) {
		if (out[key] !== undefined && typeof out[key] !== 'string')
			throw bad(`${key} must be a string`);
	}
	return { ...EMPTY_AUTOMATION, ...(out as Partial<AutomationFields>) };
}

function accountOf(accountId: string): AccountSpec {
	return ACCOUNTS.find((account) => account.id === accountId)!;
}

/** The flat delivery body of one event (docs/api.md "Webhooks"). */
function payloadOf(
	ctx: SandboxContext,
	list: StoredList,
	event: ListEvent,
): Record<string, unknown> {
	const property = getSearchable(ctx, event.propId);
	const body: Record<string, unknown> = {
		TriggerType: event.type,
		PropID: event.propId,
		ListID: list.ListID,
		ListName: list.ListName,
		Address: property?.Address,
		City: property?.City,
		State: property?.State,
		ZipFive: property?.ZipFive,
		PType: property?.PType,
		ForeclosureStage: property?.ForeclosureStage,
		ListingStatus: property?.ListingStatus,
		AVM: property?.AVM,
	};
	(event.changes ?? []).slice(0, 3).forEach((change, index) => {
		body[`Change${index + 1}`] = change;
	});
	return body;
}

/**
 * Runs a list's automation for events in that list: webhooks, other lists, interest and status
 * levels, phone and e-mail purchases (charged once per triggered record, that is per property,
 * whatever its number of owners, whose phones or e-mails are all bought; skipped and logged when
 * the account cannot pay), and e-mails, notifications and orders recorded in the outbox.
 */
export function fireEvents(
	ctx: SandboxContext,
	accountId: string,
	list: StoredList,
	events: ListEvent[],
	depth = 0,
): void {
	const automation = list.automation;
	// Monitoring turns automations on and off (the lists document): an unmonitored list's automation never fires.
	if (!list.isMonitored || !automation.isEnabled || events.length === 0 || depth > 3) return;
	const triggers = automation.Triggers.split(',').map((t) => t.trim());
	const wanted = events.filter((event) =>
		event.type === DELIVERY_TRIGGER_TYPES.newMatch
			? triggers.includes(TRIGGER_EVENTS.newMatches)
			: triggers.includes(TRIGGER_EVENTS.statusChanges),
	);
	if (wanted.length === 0) return;
	const account = accountOf(accountId);
	const at = new Date().toISOString();
	const box = outbox(ctx);
	const hooks = webhooksState(ctx).hooks;
	for (const webhookId of idList(automation.ExportToWebhookIDs)) {
		const hook = own(hooks, webhookId);
		if (!hook || hook.accountId !== accountId) continue;
		deliver(
			ctx,
			hook,
			list.ListID,
			wanted.map((event) => payloadOf(ctx, list, event)),
		);
	}
	for (const event of wanted) {
		const record = (action: string, detail?: string) =>
			box.push({ at, accountId, ListID: list.ListID, action, PropID: event.propId, detail });
		for (const [setting, field] of [
			['SetInterestLevel', 'InterestLevel'],
			['SetStatusLevel', 'StatusLevel'],
		] as const) {
			const level = automation[setting];
			if (level === null) continue;
			const data = userData(ctx, accountId, event.propId);
			// 0 unsets interest, or sets status None: the property no longer has that level saved.
			if (level === 0) delete data[field];
			else data[field] = level;
		}
		for (const [field, action] of [
			['DailyEmailMemberIDs', 'daily e-mail'],
			['ImmediateEmailMemberIDs', 'immediate e-mail'],
			['MobileNotificationMemberIDs', 'push notification'],
		] as const) {
			for (const member of idList(automation[field])) record(action, `member ${member}`);
		}
		if (automation.DirectMailOrderID) record('direct-mail order', automation.DirectMailOrderID);
		if (automation.EmailMarketingOrderID)
			record('e-mail marketing order', automation.EmailMarketingOrderID);
		for (const [flag, kind, what] of [
			['PurchasePhone', 'automationPhone', 'phone'],
			['PurchaseEmail', 'automationEmail', 'email'],
		] as const) {
			if (!automation[flag]) continue;
			const persons = getPersons(ctx, account, event.propId);
			try {
				charge(
					ctx,
					account,
					kind,
					1,
					true,
					`automation of list ${list.ListID}: ${what} for ${event.propId}`,
				);
				const purchases = (personState(ctx).purchases[accountId] ??= {});
				for (const person of persons) (purchases[person.PersonKey] ??= {})[what] = true;
				record(`purchased ${what}`, `${persons.length} persons`);
			} catch (error) {
				record(`skipped ${what} purchase`, (error as Error).message);
			}
		}
	}
	const lists = accountLists(ctx, account);
	for (const targetId of idList(automation.AddToLists)) {
		const target = own(lists, targetId);
		if (!target || target.ListType !== 'static') continue;
		const entered = wanted.map((e) => e.propId).filter((propId) => !hasMember(target, propId));
		for (const propId of entered) target.members[propId] = at;
		fireEvents(
			ctx,
			accountId,
			target,
			entered.map((propId) => ({ type: DELIVERY_TRIGGER_TYPES.newMatch, propId })),
			depth + 1,
		);
	}
	for (const targetId of idList(automation.RemoveFromLists)) {
		const target = own(lists, targetId);
		if (!target || target.ListType === 'dynamic') continue;
		for (const event of wanted) delete target.members[event.propId];
	}
	ctx.store.save();
}
