import type { IDataObject } from 'n8n-workflow';

import type { ApiContext, ApiRequest } from './request';
import { apiRequest } from './request';
import type { ApiEnvelope } from './types';

export interface PagingOptions {
	/** Records per request (the endpoint's maximum page). */
	pageSize: number;
	/** Stop after this many records; undefined means all of them ("Return All"). */
	limit?: number;
}

export interface PagedResult<T> {
	records: T[];
	/** `totalResultCount` of the last page, where the endpoint gives one. */
	totalResultCount?: number;
}

/**
 * `Start`/`Limit` paging of a free read: asks for no more than is still wanted, and stops at the
 * limit, on a short page, or when `totalResultCount` is reached. Once a first full page shows
 * that there are more, the next page is asked for while the current one is read, so the service
 * prepares one page while n8n parses the other. A page asked for ahead whose answer is not needed
 * (an earlier page ended the list) is dropped, even when it failed: then one free read more was
 * made than one page at a time would have made.
 */
async function pageThrough<T>(
	fetchPage: (start: number, limit: number) => Promise<ApiEnvelope<T>>,
	{ pageSize, limit }: PagingOptions,
): Promise<PagedResult<T>> {
	const records: T[] = [];
	let totalResultCount: number | undefined;
	const sizeAt = (start: number) => (limit === undefined ? pageSize : Math.min(pageSize, limit - start));
	const ask = (start: number) => {
		const page = fetchPage(start, sizeAt(start));
		page.catch(() => undefined);
		return page;
	};
	let start = 0;
	let current = ask(start);
	let ahead = false;
	for (;;) {
		const wanted = sizeAt(start);
		const nextStart = start + wanted;
		const more = () => sizeAt(nextStart) > 0 && (totalResultCount === undefined || nextStart < totalResultCount);
		const next = ahead && more() ? ask(nextStart) : undefined;
		const page = await current;
		const results = page.results ?? [];
		for (const record of results) records.push(record);
		totalResultCount = page.totalResultCount ?? totalResultCount;
		if (results.length < wanted || !more()) break;
		start = nextStart;
		current = next ?? ask(start);
		ahead = true;
	}
	return { records, totalResultCount };
}

/** All pages of a plain (free, repeatable) request, the next one asked for while the current one is read. */
export async function collectPages<T = IDataObject>(
	context: ApiContext,
	request: ApiRequest,
	options: PagingOptions,
): Promise<PagedResult<T>> {
	return pageThrough(
		(start, limit) => apiRequest<ApiEnvelope<T>>(context, { ...request, qs: { ...request.qs, Start: start, Limit: limit } }),
		options,
	);
}
