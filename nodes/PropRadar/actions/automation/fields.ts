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

/** The fields given, checked and in the API's shapes; a problem names the field and what it allows. */
export function automationFields(
	given: IDataObject,
	listId: number | string,
): { fields: Partial<AutomationRecord>; problem?: string } {
	const fields: IDataObject = {};
	for (const [key, value] of Object.entries(given)) {
		if (!Object.hasOwn(EMPTY_AUTOMATION, key))
			return { fields: {}, problem: `${key} is not an automation field` };
		// Empty text or nothing, what an expression gives for an item without the value, is left out:
		// the field stays as it is instead of clearing the list's wiring or setting level 0 (docs/design.md).
		const idsOrLevel =
			(AUTOMATION_ID_FIELDS as readonly string[]).includes(key) ||
			key === 'SetInterestLevel' ||
			key === 'SetStatusLevel';
		if (idsOrLevel && (value === '' || value === null || value === undefined)) continue;
		if ((AUTOMATION_FLAG_FIELDS as readonly string[]).includes(key)) {
			const on = value === true || value === 1 || value === '1';
			if (!on && value !== false && value !== 0 && value !== '0')
				return {
					fields: {},
					problem: `${key}: must be on or off (true or false), got "${shownValue(value)}"`,
				};
			fields[key] = on ? 1 : 0;
		} else if ((AUTOMATION_ID_FIELDS as readonly string[]).includes(key)) {
			if ((AUTOMATION_NUMBERED_ID_FIELDS as readonly string[]).includes(key)) {
				// List and webhook IDs are numbered: checked as exact digits, like every list ID the node sends.
				const entries = Array.isArray(value)
					? value
					: typeof value === 'string'
						? value
								.split(',')
								.map((id) => id.trim())
								.filter(Boolean)
						: [value];
				for (const entry of entries) {
					const parsed = parseNumberedId(
						entry,
						key === 'ExportToWebhookIDs' ? 'a webhook ID' : 'a list ID',
					);
					if ('problem' in parsed)
						return { fields: {}, problem: `${key}: "${shownValue(entry)}" ${parsed.problem}` };
				}
			}
			const ids = idsFrom(value);
			const bad = ids.find((id) => !/^[\w-]+$/.test(id));
			if (bad) return { fields: {}, problem: `${key}: "${bad}" is not an ID` };
			if ((key === 'AddToLists' || key === 'RemoveFromLists') && ids.includes(String(listId))) {
				return { fields: {}, problem: `${key}: must not include the list itself (${listId})` };
			}
			fields[key] = ids.join(',');
		} else if (key === 'SetInterestLevel' || key === 'SetStatusLevel') {
			const level =
				typeof value === 'number'
					? value
					: typeof value === 'string' && value.trim() !== ''
						? Number(value)
						: NaN;
			const max = AUTOMATION_LEVEL_MAX[key];
			if (!Number.isInteger(level) || level < 0 || level > max)
				return {
					fields: {},
					problem: `${key}: must be a whole number from 0 to ${max}, got "${shownValue(value)}"`,
				};
			fields[key] = level;
		} else if (key === 'Triggers') {
			const triggers = String(value)
				.split(',')
				.map((t) => t.trim())
				.filter(Boolean)
				.join(',');
			if (!(TRIGGER_VALUES as readonly string[]).includes(triggers))
				return {
					fields: {},
					problem: `Triggers: must be one of ${TRIGGER_VALUES.map((t) => `"${t}"`).join(', ')}`,
				};
			fields[key] = triggers;
		} else {
			fields[key] = String(value ?? '');
		}
	}
	return { fields: fields as Partial<AutomationRecord> };
}
