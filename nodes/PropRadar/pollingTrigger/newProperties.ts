import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { FIELD_SCOPES, PAGE_LIMITS } from '../shared/vocabulary';
import { collectPages, listCount, paths } from '../transport';

// `seen`: PropIDs read lately, with when (read twice in an overlap, emitted once); `pageHeld`: see readAll.
export interface NewPropertiesState extends IDataObject {
	listId?: number;
	since?: number;
	seen?: Record<string, number>;
	pageHeld?: number;
}

// Each read starts this far back: properties added during a read, or by a clock behind n8n's, are read.
export const OVERLAP_MS = 5 * 60_000;
// A PropID is forgotten once no later read can return it again.
const SEEN_FOR_MS = 2 * OVERLAP_MS;
// "Fetch Test Event": up to this many of the list's properties, added in the last 30 days if any were.
const SAMPLE_SIZE = 5;
const SAMPLE_DAYS = 30;

// Both polling triggers read only list items and the list itself: free (docs/money.md), changing nothing.
function readItems(
	context: IPollFunctions,
	listId: number,
	qs: IDataObject,
	limit: number,
	expected?: number,
) {
	return collectPages<IDataObject>(
		context,
		{ method: 'GET', path: paths.listItems(listId), qs: qs as Record<string, string> },
		{ pageSize: PAGE_LIMITS.listItems.maxLimit, limit, expected: Promise.resolve(expected) },
	);
}

// A short page may be the service's own size (docs/api.md): it ends the read only if a page held more.
async function readAll(
	context: IPollFunctions,
	listId: number,
	qs: IDataObject,
	pageHeld: number,
): Promise<{ records: IDataObject[]; pageHeld: number }> {
	const { records } = await readItems(context, listId, qs, PAGE_LIMITS.listItems.maxLimit);
	const held = Math.max(pageHeld, records.length);
	if (records.length === 0 || records.length < pageHeld) return { records, pageHeld: held };
	const pageSize = records.length;
	const rest = await collectPages<IDataObject>(
		context,
		{ method: 'GET', path: paths.listItems(listId), qs: qs as Record<string, string> },
		{ pageSize, start: pageSize },
	);
	return { records: [...records, ...rest.records], pageHeld: held };
}

function distinctByPropId(records: IDataObject[]): IDataObject[] {
	const read = new Set<string>();
	return records.filter((record) => {
		const propId = String(record.PropID ?? '');
		if (propId === '' || read.has(propId)) return false;
		read.add(propId);
		return true;
	});
}

async function sample(
	context: IPollFunctions,
	listId: number,
	qs: IDataObject,
): Promise<IDataObject[]> {
	const recent = new Date(Date.now() - SAMPLE_DAYS * 86_400_000).toISOString();
	const added = await readItems(context, listId, { ...qs, AddedSince: recent }, SAMPLE_SIZE);
	if (added.records.length > 0) return distinctByPropId(added.records);
	const any = (await readItems(context, listId, qs, SAMPLE_SIZE)).records;
	if (any.length === 0) throw noPropertiesYet(context, listId);
	return distinctByPropId(any);
}

function noPropertiesYet(context: IPollFunctions, listId: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`List ${listId} has no properties yet, so there is no event to show`,
		{ description: 'Add a property to the list, then fetch a test event again.' },
	);
}

// The first poll of a list emits nothing; the state changes only once a read succeeded.
export async function readNewProperties(
	context: IPollFunctions,
	state: NewPropertiesState,
	{ listId, fields, manual }: { listId: number; fields: string | undefined; manual: boolean },
): Promise<IDataObject[]> {
	const qs = fields === undefined ? {} : { Fields: fields };
	if (manual) return await sample(context, listId, qs);
	const startedAt = Date.now();
	// A new trigger, or another list chosen: it starts from now.
	const starting = state.listId !== listId || typeof state.since !== 'number';
	const since = starting ? startedAt : (state.since as number);
	const pageHeld = starting || typeof state.pageHeld !== 'number' ? undefined : state.pageHeld;
	// Unknown: the list's first page, with the same fields, says how many records a page holds at least.
	const firstPage =
		pageHeld === undefined
			? readItems(context, listId, qs, PAGE_LIMITS.listItems.maxLimit)
			: undefined;
	const addedSince = { ...qs, AddedSince: new Date(since - OVERLAP_MS).toISOString() };
	const [known, read] = await Promise.all([
		firstPage?.then(({ records }) => records.length),
		readAll(context, listId, addedSince, pageHeld ?? 0),
	]);
	const { records } = read;
	const readAt = Date.now();
	const seen = starting ? {} : (state.seen ?? {});
	const fresh = distinctByPropId(records).filter(
		(record) => !Object.hasOwn(seen, String(record.PropID)),
	);
	const kept: Record<string, number> = {};
	for (const [propId, at] of Object.entries(seen))
		if (at > startedAt - SEEN_FOR_MS) kept[propId] = at;
	for (const record of fresh) kept[String(record.PropID)] = readAt;
	state.listId = listId;
	state.since = startedAt;
	state.seen = kept;
	state.pageHeld = Math.max(read.pageHeld, known ?? 0);
	return starting ? [] : fresh;
}

// One array per PropID, in the order of `fields`: about 40 to 70 bytes a property (docs/trigger.md).
export interface ChangesState extends IDataObject {
	listId?: number;
	fields?: string[];
	values?: Record<string, Array<IDataObject[string]>>;
}

// Watched lists' values are kept whole in the workflow's static data.
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
				"What the trigger keeps between polls (every property's watched values) is stored with the workflow, so its size is bounded. Watch a smaller list, or use New Properties, which keeps little whatever the size of the list. Nothing was emitted.",
		},
	);
}

// A field may hold a list or an object (a property's Persons): compared by what it holds.
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

const named = (fields: string[], values: ReadonlyArray<unknown>): IDataObject =>
	Object.fromEntries(fields.map((field, index) => [field, values[index] ?? null]));

// Changed and left properties; the first poll (or another list or other fields) emits nothing.
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
		if (propId !== '') current[propId] = fields.map((field) => record[field] ?? null);
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
