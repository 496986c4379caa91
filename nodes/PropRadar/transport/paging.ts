import type { IDataObject } from 'n8n-workflow';

import type { NumberedId } from '../shared/ids';
import { fieldNames, LIST_FIELDS } from '../shared/vocabulary';
import { paths } from './paths';
import type { ApiContext } from './credential';
import type { ApiRequest } from './request';
import { apiRequest } from './request';
import type { ApiEnvelope, ListRecord } from './types';

export interface PagingOptions {
	pageSize: number;
	/** Undefined: all of them (Return All). */
	limit?: number;
	/** Records before it were read already. */
	start?: number;
}

export interface PagedResult<T> {
	records: T[];
	totalResultCount?: number;
}

interface PageAsked<T> {
	start: number;
	wanted: number;
	page: Promise<ApiEnvelope<T>>;
}

// Free reads only. From the second page on, the next page is asked for while the current one
// travels, so the service works on it meanwhile (docs/design.md: "Paging waits on the service for every page").
export async function pageThrough<T>(
	fetchPage: (start: number, limit: number) => Promise<ApiEnvelope<T>>,
	{ pageSize, limit, start: first = 0 }: PagingOptions,
): Promise<PagedResult<T>> {
	const records: T[] = [];
	let totalResultCount: number | undefined;
	const ask = (start: number): PageAsked<T> | undefined => {
		const wanted = limit === undefined ? pageSize : Math.min(pageSize, limit - (start - first));
		if (wanted <= 0 || (totalResultCount !== undefined && start >= totalResultCount))
			return undefined;
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
		const ended =
			results.length < current.wanted ||
			(totalResultCount !== undefined && end >= totalResultCount);
		// A page longer than asked for moves the next start, so the page asked for ahead is dropped
		// too. A dropped page is answered before going on: no request outlives the run.
		const full = results.length === current.wanted;
		if (ended || !full) await ahead?.page.catch(() => undefined);
		if (ended) break;
		current = full && ahead ? ahead : ask(end);
	}
	return { records, totalResultCount };
}

// A short page may only be a service answering fewer a page than asked: the read goes on from there
// while `expected` shows more, or until a page is empty with `untilEmpty` (docs/api.md, Envelope and encoding).
export async function collectPages<T = IDataObject>(
	context: ApiContext,
	request: ApiRequest,
	options: PagingOptions & { expected?: Promise<number | undefined>; untilEmpty?: boolean },
): Promise<PagedResult<T>> {
	const fetchPage = (start: number, limit: number) =>
		apiRequest<ApiEnvelope<T>>(context, {
			...request,
			qs: { ...request.qs, Start: start, Limit: limit },
		});
	const read = await pageThrough(fetchPage, options);
	const expected = await options.expected;
	const found = read.records.length;
	const wanted = options.limit === undefined ? Infinity : options.limit;
	const more = options.untilEmpty
		? found < wanted
		: expected !== undefined && found < Math.min(expected, wanted);
	if (found > 0 && more) {
		const rest = await pageThrough(fetchPage, {
			pageSize: Math.min(found, options.pageSize),
			start: found,
			limit: options.limit === undefined ? undefined : options.limit - found,
		});
		for (const record of rest.records) read.records.push(record);
	}
	return read;
}

// Asked for at once, beside the read's first page; undefined when unreadable, since the read stands on its own.
export async function listCount(
	context: ApiContext,
	listId: NumberedId,
	count: 'TotalCount' | 'TotalImportItems',
	itemIndex?: number,
): Promise<number | undefined> {
	try {
		const list = (
			await apiRequest<ApiEnvelope<ListRecord>>(context, {
				method: 'GET',
				path: paths.list(listId),
				qs: { Fields: fieldNames(LIST_FIELDS, 'ListID', count) },
				itemIndex,
			})
		).results?.[0];
		const value = Number(list?.[count]);
		return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
	} catch {
		return undefined;
	}
}
