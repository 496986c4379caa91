/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse } from 'node:querystring';

import {
	authenticate,
	tokenBook,
	type AccountSpec,
	type AuthHeaders,
	type AuthOptions,
} from './accounts';
import { ApiError, badRequest } from './errors';
import type { SandboxContext } from './types';

/** Each running sandbox's state, for `auth` to find the tokens its rotations issued (`bindContext`). */
const contexts = new WeakMap<FastifyInstance, SandboxContext>();

/** Lets `auth` on `app`'s routes take the tokens issued by rotations in `ctx`. */
export function bindContext(app: FastifyInstance, ctx: SandboxContext): void {
	contexts.set(app, ctx);
}

/** Small helpers every route module shares. */
export function auth(request: FastifyRequest, opts: AuthOptions = {}): AccountSpec {
	const ctx = contexts.get(request.server);
	return authenticate(request.headers as AuthHeaders, opts, ctx && tokenBook(ctx), {
		method: request.method,
		route: request.routeOptions.url ?? request.url,
	});
}

/**
 * The route option of every route that takes a body: the token is checked before the body is
 * parsed or validated, so 401/403 (404 on the routes that hide their existence) come before 400.
 */
export function authBeforeBody(opts: AuthOptions = {}): {
	onRequest: (request: FastifyRequest) => Promise<void>;
} {
	return {
		onRequest: async (request) => {
			auth(request, opts);
		},
	};
}

export type Query = Record<string, string | undefined>;

/** The parameters the lists document types as arrays ("Query: Fields (array)"). */
const ARRAY_PARAMS = new Set(['Fields']);

/** The names given more than once (and not arrays) in a query `parseQuery` made: `onlyParams` refuses them. */
const repeatedNames = new WeakMap<Query, string[]>();

/**
 * The sandbox's query-string parser (the server's one): every value a string. An array parameter
 * given more than once is the comma list the API takes (`Fields=A&Fields=B` is `Fields=A,B`); any
 * other keeps its first value and is remembered, for `onlyParams` to refuse after the token check.
 */
export function parseQuery(search: string): Query {
	const query: Query = Object.create(null);
	const repeated: string[] = [];
	for (const [name, value] of Object.entries(parse(search))) {
		if (!Array.isArray(value)) query[name] = value;
		else if (ARRAY_PARAMS.has(name)) query[name] = value.join(',');
		else {
			query[name] = value[0];
			repeated.push(name);
		}
	}
	if (repeated.length > 0) repeatedNames.set(query, repeated);
	return query;
}

/** A whole number from a path or query value, or 400 naming it. */
export function wholeNumber(
	value: string | undefined,
	name: string,
	{ min = 0, max = Number.MAX_SAFE_INTEGER } = {},
): number {
	if (value === undefined || !/^\d+$/.test(value))
		throw badRequest(`Invalid ${name}`, `${name} must be a whole number`);
	const number = Number(value);
	if (number < min || number > max)
		throw badRequest(`Invalid ${name}`, `${name} must be between ${min} and ${max}`);
	return number;
}

/** A path id: not a number means no such resource. */
export function pathId(value: string): number {
	if (!/^\d+$/.test(value)) throw new ApiError(404, 'Resource does not exist for given id');
	return Number(value);
}

export function paging(
	query: Query,
	{ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number },
): { start: number; limit: number } {
	const start = query.Start === undefined ? 0 : wholeNumber(query.Start, 'Start');
	const limit =
		query.Limit === undefined
			? defaultLimit
			: wholeNumber(query.Limit, 'Limit', { min: 1, max: maxLimit });
	return { start, limit };
}

/** Sorts by `Sort` (comma list of allowed fields) and `Dir` (asc/desc per field). */
export function sortRecords<T extends Record<string, unknown>>(
	records: T[],
	query: Query,
	allowed: readonly string[],
	alwaysAsc: readonly string[] = [],
): T[] {
	if (!query.Sort) return records;
	const fields = query.Sort.split(',').map((f) => f.trim());
	const dirs = (query.Dir ?? '').split(',').map((d) => d.trim().toLowerCase());
	fields.forEach((field) => {
		if (!allowed.includes(field))
			throw badRequest(
				'Invalid Sort',
				`Sort: "${field}" is not sortable; sortable: ${allowed.join(', ')}`,
			);
	});
	dirs.forEach((dir) => {
		if (dir && dir !== 'asc' && dir !== 'desc')
			throw badRequest('Invalid Dir', `Dir: "${dir}" must be asc or desc`);
	});
	return [...records].sort((x, y) => {
		for (let i = 0; i < fields.length; i++) {
			const a = x[fields[i]];
			const b = y[fields[i]];
			if (a === b) continue;
			// Unknown values last, whichever the direction.
			if (a === null || a === undefined) return 1;
			if (b === null || b === undefined) return -1;
			const desc = dirs[i] === 'desc' && !alwaysAsc.includes(fields[i]);
			const result = compareValues(a, b);
			if (result !== 0) return desc ? -result : result;
		}
		return 0;
	});
}

/** The service's dates (`M/D/YYYY`) as a time, to sort them as dates rather than as text. */
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

function compareValues(a: unknown, b: unknown): number {
	const na = Number(a);
	const nb = Number(b);
	if (!Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
	const da = US_DATE.exec(String(a));
	const db = US_DATE.exec(String(b));
	if (da && db) return Date.UTC(+da[3], +da[1] - 1, +da[2]) - Date.UTC(+db[3], +db[1] - 1, +db[2]);
	return String(a).localeCompare(String(b));
}

export function commaList(value: string | undefined): string[] {
	return (value ?? '')
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);
}

export function flag(value: string | undefined, name: string): number | undefined {
	if (value === undefined) return undefined;
	if (value === '1' || value === 'true') return 1;
	if (value === '0' || value === 'false') return 0;
	throw badRequest(`Invalid ${name}`, `${name} must be 1 or 0`);
}

/** Refuses query parameters a route does not take, and one given more than once, naming them. */
export function onlyParams(query: Query, allowed: readonly string[]): void {
	const unknown = Object.keys(query).find((name) => !allowed.includes(name));
	if (unknown) throw badRequest('Unexpected parameter', `Unexpected query parameter: ${unknown}`);
	const repeated = repeatedNames.get(query)?.[0];
	if (repeated)
		throw badRequest(
			`Invalid ${repeated}`,
			`${repeated} is given more than once: give it once, several values as one comma list where it takes them`,
		);
}

/** The allowed fields of each list `onlyFields` is given, as a set, made once. */
const allowedSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * Refuses body fields a route does not take: 400 naming the first one, with the text
 * "Unexpected payload field" (the service's, from its public material: the documents name no 400
 * texts; docs/api.md). Run for each record of an import (10,000 in one request), so
 * nothing is made per call.
 */
export function onlyFields(
	body: Record<string, unknown>,
	allowed: readonly string[],
	where = 'body',
): void {
	let names = allowedSets.get(allowed);
	if (!names) allowedSets.set(allowed, (names = new Set(allowed)));
	for (const name in body) {
		if (Object.hasOwn(body, name) && !names.has(name))
			throw new ApiError(
				400,
				'Unexpected payload field',
				`${where}: ${name} is not an accepted field`,
			);
	}
}

export function objectBody(body: unknown): Record<string, unknown> {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw badRequest('Invalid body', 'The body must be a JSON object');
	return body as Record<string, unknown>;
}
