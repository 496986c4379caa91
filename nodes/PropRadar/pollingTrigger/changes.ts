import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listCount } from '../transport';
import { FIELD_SCOPES } from '../shared/vocabulary';
import { noPropertiesYet, readItems, SAMPLE_SIZE } from './newProperties';

/**
 * What Changes in Properties keeps between polls: the watched fields' values of every property of
 * the list, one array per PropID in the order of `fields`. Measured in docs/trigger.md: about 40 to
 * 70 bytes a property with four fields, so the largest list below stays well under a megabyte.
 */
export interface ChangesState extends IDataObject {
	listId?: number;
	fields?: string[];
	values?: Record<string, Array<IDataObject[string]>>;
}

/** The largest list watched for changes: its values are kept whole in the workflow's static data. */
export const MAX_WATCHED_PROPERTIES = 5_000;
export const MAX_WATCHED_FIELDS = 10;

const WATCHABLE: readonly string[] = FIELD_SCOPES.listItem.fields.filter(
	(field) => field !== 'PropID',
);

export function readWatchedFields(context: IPollFunctions): string[] {
	const raw = context.getNodeParameter('watchedFields', []) as unknown;
	const names =
		typeof raw === 'string'
			? raw.split(',')
			: Array.isArray(raw) && raw.every((name) => typeof name === 'string')
				? (raw as string[])
				: undefined;
	if (!names)
		throw new NodeOperationError(
			context.getNode(),
			'Fields to Watch: must be a list of field names, or names separated by commas',
		);
	const fields = [...new Set(names.map((name) => name.trim()).filter(Boolean))];
	const unknown = fields.filter((name) => !WATCHABLE.includes(name));
	if (unknown.length > 0)
		throw new NodeOperationError(
			context.getNode(),
			`Fields to Watch: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a property field of a list item`,
			{
				description: `Allowed: the property fields, such as ListingStatus, ForeclosureStage, LastTransferRecDate, ListingPrice or AVM.`,
			},
		);
	if (fields.length === 0 || fields.length > MAX_WATCHED_FIELDS)
		throw new NodeOperationError(
			context.getNode(),
			`Fields to Watch: choose 1 to ${MAX_WATCHED_FIELDS} fields; ${fields.length} chosen`,
		);
	return fields;
}

function tooLarge(context: IPollFunctions, listId: number, count: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`List ${listId} holds ${count} properties: Changes in Properties watches lists of at most ${MAX_WATCHED_PROPERTIES}`,
		{
			description:
				"What the trigger keeps between polls (every property's watched values) is stored " +
				'with the workflow, so its size is bounded. Watch a smaller list, or use New ' +
				'Properties, which keeps little whatever the size of the list. Nothing was emitted.',
		},
	);
}

const valueOf = (record: IDataObject, field: string) => record[field] ?? null;
// A field may hold a list or an object (a property's Persons): compared by what it holds.
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

const named = (fields: string[], values: ReadonlyArray<unknown>): IDataObject =>
	Object.fromEntries(fields.map((field, index) => [field, values[index] ?? null]));

/**
 * The properties of the list whose watched values changed since the last poll (with their values
 * before and after), and those that left it. The first poll (or another list or other fields
 * chosen) emits nothing and records the values; a poll that fails changes nothing.
 */
export async function readChanges(
	context: IPollFunctions,
	state: ChangesState,
	{ listId, fields, manual }: { listId: number; fields: string[]; manual: boolean },
): Promise<IDataObject[]> {
	const size = manual ? undefined : await listCount(context, listId, 'TotalCount');
	if (size !== undefined && size > MAX_WATCHED_PROPERTIES) throw tooLarge(context, listId, size);
	const { records } = await readItems(
		context,
		listId,
		{ Fields: ['PropID', ...fields].join(',') },
		manual ? SAMPLE_SIZE : MAX_WATCHED_PROPERTIES + 1,
		size,
	);
	if (records.length > MAX_WATCHED_PROPERTIES) throw tooLarge(context, listId, records.length);
	const current: NonNullable<ChangesState['values']> = {};
	for (const record of records) {
		const propId = String(record.PropID ?? '');
		if (propId !== '') current[propId] = fields.map((field) => valueOf(record, field));
	}
	if (manual) {
		if (Object.keys(current).length === 0) throw noPropertiesYet(context, listId);
		// A sample in the shape of a change: each property's values now, as before and after.
		return Object.entries(current).map(([PropID, values]) => ({
			PropID,
			change: 'changed',
			before: named(fields, values),
			after: named(fields, values),
		}));
	}
	const starting =
		state.listId !== listId ||
		JSON.stringify(state.fields) !== JSON.stringify(fields) ||
		typeof state.values !== 'object' ||
		state.values === null;
	const previous = starting ? {} : (state.values as NonNullable<ChangesState['values']>);
	const found: IDataObject[] = [];
	if (!starting) {
		for (const [PropID, after] of Object.entries(current)) {
			const before = previous[PropID];
			if (!before) continue;
			const changed = fields.filter((_, index) => !same(before[index], after[index]));
			if (changed.length === 0) continue;
			const ofChanged = (values: ReadonlyArray<unknown>) =>
				named(
					changed,
					changed.map((field) => values[fields.indexOf(field)]),
				);
			found.push({ PropID, change: 'changed', before: ofChanged(before), after: ofChanged(after) });
		}
		for (const [PropID, before] of Object.entries(previous))
			if (!Object.hasOwn(current, PropID))
				found.push({ PropID, change: 'left', before: named(fields, before) });
	}
	state.listId = listId;
	state.fields = fields;
	state.values = current;
	return found;
}
