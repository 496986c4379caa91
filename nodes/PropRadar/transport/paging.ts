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
 * `Start`/`Limit` paging over any page fetcher: asks for no more than is still wanted, and stops at
 * the limit, on a short page, or when `totalResultCount` is reached, so no page is fetched that
 * is not needed.
 */
export async function pageThrough<T>(
	fetchPage: (start: number, limit: number) => Promise<ApiEnvelope<T>>,
	{ pageSize, limit }: PagingOptions,
): Promise<PagedResult<T>> {
	const records: T[] = [];
	let totalResultCount: number | undefined;
	for (let start = 0; ; ) {
		const wanted = limit === undefined ? pageSize : Math.min(pageSize, limit - records.length);
		if (wanted <= 0) break;
		const page = await fetchPage(start, wanted);
		const results = page.results ?? [];
		records.push(...results);
		totalResultCount = page.totalResultCount ?? totalResultCount;
		start += results.length;
		if (results.length < wanted) break;
		if (totalResultCount !== undefined && start >= totalResultCount) break;
	}
	return { records, totalResultCount };
}

/** `pageThrough` for a plain (free, repeatable) request. */
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
