import type { IDataObject } from 'n8n-workflow';

import type { NumberedId } from '../shared/ids';
import { fieldNames, LIST_FIELDS } from '../shared/vocabulary';
import { paths } from './paths';
import type { ApiContext } from './credential';
import type { ApiRequest } from './request';
import { apiRequest } from './request';
import type { ApiEnvelope, ListRecord } from './types';

export interface PagingOptions {
	/** Records per request (the endpoint's maximum page). */
	pageSize: number;
	/** Stop after this many records; undefined means all of them ("Return All"). */
	limit?: number;
	/** The `Start` of the first page (0 unless given): records before it were read already. */
	start?: number;
}

export interface PagedResult<T> {
	records: T[];
	/** `totalResultCount` of the last page, where the endpoint gives one. */
	totalResultCount?: number;
}

interface PageAsked<T> {
	start: number;
	wanted: number;
	page: Promise<ApiEnvelope<T>>;
}

/**
 * `Start`/`Limit` paging over any page fetcher of free reads: asks for no more than is still
 * wanted, and stops at the limit, on a short page, or when `totalResultCount` is reached. Once the
 * records fill more than one page, the next page is asked for while the current one travels and is
 * read (as if it were full), so the service works on it meanwhile: one page at most is under way
 * beyond the one being read. The page asked for ahead of the last one is awaited and dropped: one
 * free read more than needed when there are several pages, none when there is one.
 */
export async function pageThrough<T>(
	fetchPage: (start: number, limit: number) => Promise<ApiEnvelope<T>>,
	{ pageSize, limit, start: first = 0 }: PagingOptions,
): Promise<PagedResult<T>> {
	const records: T[] = [];
	let totalResultCount: number | undefined;
	const ask = (start: number): PageAsked<T> | undefined => {
		const wanted = limit === undefined ? pageSize : Math.min(pageSize, limit - (start - first));
		if (wanted <= 0 || (totalResultCount !== undefined && start >= totalResultCount)) return undefined;
		const page = fetchPage(start, wanted);
		// Its failure is seen when it is awaited; a page dropped unread must not be an unhandled rejection.
		page.catch(() => undefined);
		return { start, wanted, page };
	};
	let current = ask(first);
	for (let index = 0; current; index++) {
		const ahead = index > 0 ? ask(current.start + current.wanted) : undefined;
		const page = await current.page;
		const results = page.results ?? [];
		records.push(...results);
		totalResultCount = page.totalResultCount ?? totalResultCount;
		const end = current.start + results.length;
		const ended = results.length < current.wanted || (totalResultCount !== undefined && end >= totalResultCount);
		// A page longer than asked for moves the next start, so the page asked for ahead is dropped
		// too. A dropped page is answered before going on: no request outlives the run.
		const full = results.length === current.wanted;
		if (ended || !full) await ahead?.page.catch(() => undefined);
		if (ended) break;
		current = full && ahead ? ahead : ask(end);
	}
	return { records, totalResultCount };
}

/**
 * `pageThrough` for a plain (free, repeatable) request. A page shorter than asked for ends a read,
 * but where pages carry no total it may only be a service that answers fewer a page than asked
 * (the documents give no maximum `Limit`). `expected`: how many records a read of them all should
 * find, known beside it (a list's count of its items); when it shows more, the read goes on from
 * where it stopped at the page size seen. `untilEmpty`, for reads with no such count (webhooks):
 * the read always goes on from where a short page stopped it, so that a page comes back empty
 * (one free read more).
 */
export async function collectPages<T = IDataObject>(
	context: ApiContext,
	request: ApiRequest,
	options: PagingOptions & { expected?: Promise<number | undefined>; untilEmpty?: boolean },
): Promise<PagedResult<T>> {
	const fetchPage = (start: number, limit: number) => apiRequest<ApiEnvelope<T>>(context, { ...request, qs: { ...request.qs, Start: start, Limit: limit } });
	const read = await pageThrough(fetchPage, options);
	const expected = await options.expected;
	const found = read.records.length;
	const wanted = options.limit === undefined ? Infinity : options.limit;
	const more = options.untilEmpty ? found < wanted : expected !== undefined && found < Math.min(expected, wanted);
	if (found > 0 && more) {
		const rest = await pageThrough(fetchPage, { pageSize: Math.min(found, options.pageSize), start: found, limit: options.limit === undefined ? undefined : options.limit - found });
		for (const record of rest.records) read.records.push(record);
	}
	return read;
}

/**
 * A count a list gives of its items (`TotalCount`, `TotalImportItems`), as `collectPages`'s
 * `expected` for a read of them all; undefined when it cannot be read, since the read stands on
 * its own. It is asked for at once, so it travels beside the read's first page.
 */
export async function listCount(context: ApiContext, listId: NumberedId, count: 'TotalCount' | 'TotalImportItems', itemIndex?: number): Promise<number | undefined> {
	try {
		const list = (await apiRequest<ApiEnvelope<ListRecord>>(context, { method: 'GET', path: paths.list(listId), qs: { Fields: fieldNames(LIST_FIELDS, 'ListID', count) }, itemIndex })).results?.[0];
		const value = Number(list?.[count]);
		return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
	} catch {
		return undefined;
	}
}
