import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import type { NumberedId } from '../shared/ids';
import { fieldNames, LIST_FIELDS } from '../shared/vocabulary';
import { paths, type ApiEnvelope, type ListRecord } from './api';
import { apiRequest, type ApiRequest } from './request';
import type { ApiContext } from './run';

export interface PagingOptions {
	pageSize: number;
	/** Undefined: all of them (Return All). */
	limit?: number;
	/** Records before it were read already. */
	start?: number;
	/** How many records there are, asked for beside the first page, when a page does not say. */
	expected?: Promise<number | undefined>;
}

type FetchPage<T> = (start: number, limit: number) => Promise<ApiEnvelope<T>>;

interface PageAsked<T> {
	start: number;
	wanted: number;
	page: Promise<ApiEnvelope<T>>;
}

function askPage<T>(fetchPage: FetchPage<T>, start: number, wanted: number): PageAsked<T> {
	const page = fetchPage(start, wanted);
	// Its failure is seen when it is awaited; a page dropped unread must not be an unhandled rejection.
	page.catch(() => undefined);
	return { start, wanted, page };
}

// Free reads only. With a total (from the first page, or `expected`) every other page is asked for at
// once, the run's window (run.ts) pacing them; without, one page ahead (docs/design.md, "Paging").
export async function pageThrough<T>(
	fetchPage: FetchPage<T>,
	{ pageSize, limit, start: first = 0, expected }: PagingOptions,
): Promise<{ records: T[] }> {
	// Records to ask for from `start`, by every page reader: a whole page, none past the Limit.
	const wantedAt = (start: number) =>
		limit === undefined ? pageSize : Math.min(pageSize, limit - (start - first));
	const wanted = wantedAt(first);
	if (wanted <= 0) return { records: [] };
	const [page, counted] = await Promise.all([
		fetchPage(first, wanted),
		expected?.catch(() => undefined),
	]);
	const results = page.results ?? [];
	const total = page.totalResultCount ?? counted;
	const end = first + results.length;
	const limitEnd = limit === undefined ? Infinity : first + limit;
	const last = total === undefined ? undefined : Math.min(limitEnd, total);
	if (results.length < wanted || end >= limitEnd || (last !== undefined && end >= last))
		return { records: [...results] };
	const rest =
		last === undefined
			? await pageAhead(fetchPage, wantedAt, end)
			: await pagesAtOnce(fetchPage, wantedAt, end, last);
	return { records: [...results, ...rest] };
}

// A page shorter than asked before the last is followed by a read of what it left out, so that no
// record is skipped; a page longer than asked keeps only its share, the next page holding the rest.
async function pagesAtOnce<T>(
	fetchPage: FetchPage<T>,
	wantedAt: (start: number) => number,
	start: number,
	last: number,
): Promise<T[]> {
	const asked: Array<PageAsked<T>> = [];
	for (let at = start; at < last; at += wantedAt(at))
		asked.push(askPage(fetchPage, at, wantedAt(at)));
	const records: T[] = [];
	try {
		for (const [index, { start: at, wanted, page }] of asked.entries()) {
			const answer = await page;
			const results = answer.results ?? [];
			const isLast = index === asked.length - 1;
			records.push(...(isLast ? results : results.slice(0, wanted)));
			if (!isLast && results.length < wanted && results.length > 0) {
				const gap = await pageThrough(fetchPage, {
					pageSize: results.length,
					start: at + results.length,
					limit: wanted - results.length,
				});
				records.push(...gap.records);
			}
		}
	} finally {
		// Every page asked for is answered before a failure goes on: no request outlives the run.
		await Promise.all(asked.map(({ page }) => page.catch(() => undefined)));
	}
	return records;
}

// Without a total: from the second page on, the next page is asked for while the current one travels.
async function pageAhead<T>(
	fetchPage: FetchPage<T>,
	wantedAt: (start: number) => number,
	start: number,
): Promise<T[]> {
	const records: T[] = [];
	let total: number | undefined;
	const ask = (at: number): PageAsked<T> | undefined => {
		const wanted = wantedAt(at);
		if (wanted <= 0 || (total !== undefined && at >= total)) return undefined;
		return askPage(fetchPage, at, wanted);
	};
	let current = ask(start);
	while (current) {
		const ahead = ask(current.start + current.wanted);
		const page = await current.page;
		const results = page.results ?? [];
		records.push(...results);
		total = page.totalResultCount ?? total;
		const end = current.start + results.length;
		const ended = results.length < current.wanted || (total !== undefined && end >= total);
		// A page longer than asked moves the next start: the page ahead is dropped, once answered.
		const full = results.length === current.wanted;
		if (ended || !full) await ahead?.page.catch(() => undefined);
		if (ended) break;
		current = full && ahead ? ahead : ask(end);
	}
	return records;
}

// A short page may only be a service answering fewer a page than asked: the read goes on from there
// while `expected` shows more, or until a page is empty with `untilEmpty` (docs/api.md, Envelope and encoding).
export async function collectPages<T = IDataObject>(
	context: ApiContext,
	request: ApiRequest,
	options: PagingOptions & { untilEmpty?: boolean },
): Promise<{ records: T[] }> {
	// A free read without its `results` array is refused by apiRequest (request.ts).
	const fetchPage = (start: number, limit: number) =>
		apiRequest<ApiEnvelope<T>>(context, {
			...request,
			qs: { ...request.qs, Start: start, Limit: limit },
		});
	const { records } = await pageThrough(fetchPage, options);
	const expected = await options.expected;
	const found = records.length;
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
		for (const record of rest.records) records.push(record);
	}
	return { records };
}

// Asked for at once, beside the read's first page; undefined when unreadable, since the read stands on its own.
export async function listCount(
	context: ApiContext,
	listId: NumberedId,
	count: 'TotalCount' | 'TotalImportItems',
	itemIndex?: number,
): Promise<number | undefined> {
	try {
		const list = await readList(context, listId, {
			fields: fieldNames(LIST_FIELDS, 'ListID', count),
			itemIndex,
		});
		const value = Number(list?.[count]);
		return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
	} catch {
		return undefined;
	}
}

/** The account's lists, sorted by name, of one type when `listType` is given (checked here too: a service that ignored the filter gives no other list). */
export async function readLists(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	fields: string,
	listType?: ListRecord['ListType'],
	itemIndex?: number,
): Promise<ListRecord[]> {
	const response = await apiRequest<{ results?: ListRecord[] }>(context, {
		method: 'GET',
		path: paths.lists(),
		qs: {
			Fields: fields,
			Sort: 'ListName',
			Dir: 'asc',
			...(listType ? { ListType: listType } : {}),
		},
		itemIndex,
	});
	return (response.results ?? []).filter((list) => !listType || list.ListType === listType);
}

/** One list by ID, with `fields` only when given; undefined when the service has no such list. */
export async function readList(
	context: ApiContext,
	listId: NumberedId,
	{ fields, itemIndex }: { fields?: string; itemIndex?: number } = {},
): Promise<ListRecord | undefined> {
	const response = await apiRequest<{ results?: ListRecord[] }>(context, {
		method: 'GET',
		path: paths.list(listId),
		qs: fields === undefined ? undefined : { Fields: fields },
		itemIndex,
	});
	return response.results?.[0];
}
