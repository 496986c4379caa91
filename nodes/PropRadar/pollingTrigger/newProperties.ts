import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, collectPages, pageThrough, paths, type ApiEnvelope } from '../transport';
import { PAGE_LIMITS } from '../shared/vocabulary';

/**
 * What the trigger keeps between polls (the node's static data). `since` is when the last read that
 * succeeded began; `seen` holds the PropIDs read since a little before it, with when each was first
 * read, so that a property read twice in the overlap of two reads is emitted once. `pageHeld` is
 * the most records one page of the list's items has held.
 */
export interface NewPropertiesState extends IDataObject {
	listId?: number;
	since?: number;
	seen?: Record<string, number>;
	pageHeld?: number;
}

/**
 * Each read asks for what was added since a little before the last read began: a property added
 * while a read was under way, or stamped by a clock up to this far behind n8n's, is still read.
 */
export const OVERLAP_MS = 5 * 60_000;
/** A PropID is forgotten once no later read can return it again (its read ended before the next read's window). */
const SEEN_FOR_MS = 2 * OVERLAP_MS;
/** "Fetch Test Event": up to this many of the list's properties, added in the last 30 days if any were. */
export const SAMPLE_SIZE = 5;
const SAMPLE_DAYS = 30;

// Both polling triggers read only list items and the list itself, both free (docs/money.md): no
// request they can send buys anything or changes anything in PropRadar.
export function readItems(
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

/**
 * Every item `qs` selects. A page short of its Limit may be the service's own page size (docs/api.md):
 * it ends the read only when a page of this list held more records before (`pageHeld`), since the
 * service's page is no shorter than that. Otherwise the read goes on in pages of that size, to an
 * empty or a shorter page. So a poll that finds nothing new reads once.
 */
async function readAll(
	context: IPollFunctions,
	listId: number,
	qs: IDataObject,
	pageHeld: number,
): Promise<{ records: IDataObject[]; pageHeld: number }> {
	const fetchPage = async (start: number, limit: number) =>
		await apiRequest<ApiEnvelope<IDataObject>>(context, {
			method: 'GET',
			path: paths.listItems(listId),
			qs: { ...(qs as Record<string, string>), Start: start, Limit: limit },
		});
	const records = (await fetchPage(0, PAGE_LIMITS.listItems.maxLimit)).results ?? [];
	const held = Math.max(pageHeld, records.length);
	if (records.length === 0 || records.length < pageHeld) return { records, pageHeld: held };
	const pageSize = records.length;
	const rest = await pageThrough(fetchPage, { pageSize, start: pageSize });
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

/** "Fetch Test Event" on a list without properties. */
export function noPropertiesYet(context: IPollFunctions, listId: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`List ${listId} has no properties yet, so there is no event to show`,
		{ description: 'Add a property to the list, then fetch a test event again.' },
	);
}

/**
 * The properties added to the list since the last poll, each once. The first poll of a list emits
 * nothing: it records where it starts, with what the list got in the overlap just before, which
 * the next read returns again. The state changes only once a read has succeeded, so a poll that
 * fails loses nothing: the next one reads from the same point.
 */
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
	const [known, read] = await Promise.all([
		firstPage?.then(({ records }) => records.length),
		readAll(
			context,
			listId,
			{ ...qs, AddedSince: new Date(since - OVERLAP_MS).toISOString() },
			pageHeld ?? 0,
		),
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
