import type { IDataObject } from 'n8n-workflow';

import type { AutomationRecord } from '../../transport';
import { parseNumberedId, shownValue } from '../../shared/ids';
import { idsFrom } from '../../shared/parameters';
import {
	AUTOMATION_FLAG_FIELDS,
	AUTOMATION_ID_FIELDS,
	AUTOMATION_LEVEL_MAX,
	AUTOMATION_NUMBERED_ID_FIELDS,
	EMPTY_AUTOMATION,
	TRIGGER_VALUES,
} from '../../shared/vocabulary';

type Checked = { value: string | number } | { problem: string };

const isOneOf = (list: readonly string[], key: string) => list.includes(key);

function flagValue(key: string, value: unknown): Checked {
	const on = value === true || value === 1 || value === '1';
	if (!on && value !== false && value !== 0 && value !== '0')
		return { problem: `${key}: must be on or off (true or false), got "${shownValue(value)}"` };
	return { value: on ? 1 : 0 };
}

function idsValue(key: string, value: unknown, listId: number | string): Checked {
	if (isOneOf(AUTOMATION_NUMBERED_ID_FIELDS, key)) {
		// List and webhook IDs are numbered: checked as exact digits, like every list ID the node sends.
		const entries = Array.isArray(value)
			? value
			: typeof value === 'string'
				? value
						.split(',')
						.map((id) => id.trim())
						.filter(Boolean)
				: [value];
		const kind = key === 'ExportToWebhookIDs' ? 'a webhook ID' : 'a list ID';
		for (const entry of entries) {
			const parsed = parseNumberedId(entry, kind);
			if ('problem' in parsed)
				return { problem: `${key}: "${shownValue(entry)}" ${parsed.problem}` };
		}
	}
	const ids = idsFrom(value);
	const bad = ids.find((id) => !/^[\w-]+$/.test(id));
	if (bad) return { problem: `${key}: "${bad}" is not an ID` };
	if ((key === 'AddToLists' || key === 'RemoveFromLists') && ids.includes(String(listId)))
		return { problem: `${key}: must not include the list itself (${listId})` };
	return { value: ids.join(',') };
}

function levelValue(key: 'SetInterestLevel' | 'SetStatusLevel', value: unknown): Checked {
	const level =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: NaN;
	const max = AUTOMATION_LEVEL_MAX[key];
	if (!Number.isInteger(level) || level < 0 || level > max)
		return {
			problem: `${key}: must be a whole number from 0 to ${max}, got "${shownValue(value)}"`,
		};
	return { value: level };
}

function triggersValue(value: unknown): Checked {
	const triggers = String(value)
		.split(',')
		.map((t) => t.trim())
		.filter(Boolean)
		.join(',');
	if (!(TRIGGER_VALUES as readonly string[]).includes(triggers))
		return {
			problem: `Triggers: must be one of ${TRIGGER_VALUES.map((t) => `"${t}"`).join(', ')}`,
		};
	return { value: triggers };
}

/** One field's value in the API's shape; undefined for an empty ID or level, which is left out. */
function checkedField(key: string, value: unknown, listId: number | string): Checked | undefined {
	const level = key === 'SetInterestLevel' || key === 'SetStatusLevel';
	// Empty text or nothing, what an expression gives for an item without the value, is left out:
	// the field stays as it is instead of clearing the list's wiring or setting level 0 (docs/design.md).
	const ids = isOneOf(AUTOMATION_ID_FIELDS, key);
	if ((ids || level) && (value === '' || value === null || value === undefined)) return undefined;
	if (isOneOf(AUTOMATION_FLAG_FIELDS, key)) return flagValue(key, value);
	if (ids) return idsValue(key, value, listId);
	if (level) return levelValue(key, value);
	if (key === 'Triggers') return triggersValue(value);
	return { value: String(value ?? '') };
}

/** The fields given, checked and in the API's shapes; a problem names the field and what it allows. */
export function automationFields(
	given: IDataObject,
	listId: number | string,
): { fields: Partial<AutomationRecord>; problem?: string } {
	const fields: IDataObject = {};
	for (const [key, value] of Object.entries(given)) {
		if (!Object.hasOwn(EMPTY_AUTOMATION, key))
			return { fields: {}, problem: `${key} is not an automation field` };
		const checked = checkedField(key, value, listId);
		if (!checked) continue;
		if ('problem' in checked) return { fields: {}, problem: checked.problem };
		fields[key] = checked.value;
	}
	return { fields: fields as Partial<AutomationRecord> };
}
