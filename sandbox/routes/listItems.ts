import { DELIVERY_TRIGGER_TYPES, PAGE_LIMITS } from '../../nodes/PropRadar/shared/vocabulary';
import { parseCriteria, parseRelativeDate, takesUnknownDates } from '../criteria';
import { getProperty, getSearchable, valuedByAvm } from '../data/properties';
import { ApiError, badRequest, notFound } from '../errors';
import { fieldsFor, pick, resolvePropertyFields } from '../fields';
import {
	auth,
	authBeforeBody,
	commaList,
	flag,
	onlyParams,
	paging,
	pathId,
	type Query,
} from '../http';
import { fireEvents } from '../lists/automations';
import { findMatches, orderedMembers } from '../lists/membership';
import {
	getList,
	hasMember,
	peekUserData,
	type StoredList,
	type UserPropertyData,
} from '../lists/state';
import type { RouteModule } from '../types';

const FILTERS = [
	'InterestLevel',
	'StatusLevel',
	'hasPhotos',
	'hasNotes',
	'hasAnalysis',
	'hasDocs',
	'PType',
	'LastTransferRecDate',
	'AddedSince',
	'MostRecentCall',
	'MostRecentText',
	'MostRecentVoicemail',
	'MostRecentDirectMail',
	'MostRecentEmail',
];

function dateFilter(name: string, value: string): (date: string | null | undefined) => boolean {
	const span = parseRelativeDate(value);
	if (!span)
		throw badRequest(
			`Invalid ${name}`,
			`${name}: "${value}" must be a preset such as "Last 30 Days", a date M/D/YYYY, or "from: M/D/YYYY to: M/D/YYYY" with either end left empty`,
		);
	// An empty `from:` also takes what has no date: `from: to: 1/1/2010` is a before-date.
	const unknown = takesUnknownDates(value);
	return (date) => {
		const time = date ? parseRelativeDate(date)?.[0] : undefined;
		if (time === undefined) return unknown;
		return time >= span[0] && time <= span[1];
	};
}

function contactFilter(name: string, value: string): (data: UserPropertyData) => boolean {
	if (value === 'None') return (data) => !data[name as keyof UserPropertyData];
	const test = dateFilter(name, value);
	return (data) => {
		const at = data[name as keyof UserPropertyData];
		if (!at) return test(null);
		const date = new Date(String(at));
		return test(`${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`);
	};
}

/** The filters of the lists document's "View list items", in the sandbox's documented value formats. */
/** The filters of a list-item read as one test, or undefined when the read has none. */
function itemFilter(
	query: Query,
	accountId: string,
	ctx: Parameters<RouteModule>[1],
): ((propId: string, addedAt: string) => boolean) | undefined {
	const tests: Array<(propId: string, addedAt: string) => boolean> = [];
	if (query.InterestLevel !== undefined) {
		const levels = commaList(query.InterestLevel).map((level) => {
			if (!/^[0-5]$/.test(level))
				throw badRequest('Invalid InterestLevel', 'InterestLevel takes 0 to 5, comma-separated');
			return Number(level);
		});
		tests.push((propId) => {
			const data = peekUserData(ctx, accountId, propId);
			const level = data.InterestLevel ?? 0;
			return levels.includes(level) && (level > 0 || Object.keys(data).length > 0);
		});
	}
	if (query.StatusLevel !== undefined) {
		const levels = commaList(query.StatusLevel).map((level) => {
			if (!/^[1-9]$/.test(level))
				throw badRequest('Invalid StatusLevel', 'StatusLevel takes 1 to 9, comma-separated');
			return Number(level);
		});
		tests.push((propId) => levels.includes(peekUserData(ctx, accountId, propId).StatusLevel ?? 0));
	}
	for (const name of ['hasPhotos', 'hasNotes', 'hasAnalysis', 'hasDocs'] as const) {
		const wanted = flag(query[name], name);
		if (wanted !== undefined)
			tests.push((propId) => (peekUserData(ctx, accountId, propId)[name] ?? 0) === wanted);
	}
	if (query.PType !== undefined) {
		const types = commaList(query.PType);
		tests.push((propId) => types.includes(getSearchable(ctx, propId)?.PType ?? ''));
	}
	if (query.LastTransferRecDate !== undefined) {
		const test = dateFilter('LastTransferRecDate', query.LastTransferRecDate);
		tests.push((propId) => test(getSearchable(ctx, propId)?.LastTransferRecDate));
	}
	if (query.AddedSince !== undefined) {
		const since = Date.parse(query.AddedSince);
		if (Number.isNaN(since))
			throw badRequest(
				'Invalid AddedSince',
				'AddedSince must be an ISO 8601 date or date and time',
			);
		tests.push((_propId, addedAt) => Date.parse(addedAt) > since);
	}
	for (const name of [
		'MostRecentCall',
		'MostRecentText',
		'MostRecentVoicemail',
		'MostRecentDirectMail',
		'MostRecentEmail',
	]) {
		if (query[name] === undefined) continue;
		const test = contactFilter(name, query[name]!);
		tests.push((propId) => test(peekUserData(ctx, accountId, propId)));
	}
	if (tests.length === 0) return undefined;
	return (propId, addedAt) => tests.every((test) => test(propId, addedAt));
}

function refuseUnlessStatic(list: StoredList, what: string): void {
	if (list.ListType !== 'static') {
		throw new ApiError(
			400,
			`Not applicable to ${list.ListType} lists`,
			`${what} works on static lists only; list ${list.ListID} is a ${list.ListType} list`,
		);
	}
}

export const listItemRoutes: RouteModule = (app, ctx) => {
	app.get('/v1/lists/:listId/items', async (request) => {
		const account = auth(request);
		const query = request.query as Query;
		onlyParams(query, ['Fields', 'Start', 'Limit', ...FILTERS]);
		const list = getList(ctx, account, pathId((request.params as { listId: string }).listId));
		const resolved = resolvePropertyFields('listItem', query.Fields, 'PropID');
		const { start, limit } = paging(query, PAGE_LIMITS.listItems);
		const keep = itemFilter(query, account.id, ctx);
		const all = orderedMembers(ctx, account, list);
		const members = keep ? all.filter(([propId, addedAt]) => keep(propId, addedAt)) : all;
		list.LastViewed = new Date().toISOString();
		ctx.store.save();
		const needsDetail = resolved.fields.some((field) => field !== 'PropID');
		const results = members.slice(start, start + limit).map(([propId]) => {
			if (!needsDetail) return { PropID: propId };
			const fields = fieldsFor(resolved, valuedByAvm(getSearchable(ctx, propId)!));
			const data = peekUserData(ctx, account.id, propId);
			const record = {
				...getProperty(ctx, propId, fields),
				InterestLevel: data.InterestLevel ?? 0,
				StatusLevel: data.StatusLevel ?? 0,
			};
			return pick(record, ['PropID', ...fields.filter((field) => field !== 'PropID')]);
		});
		return { results };
	});

	app.put('/v1/lists/:listId/items', authBeforeBody(), async (request) => {
		const account = auth(request);
		const list = getList(ctx, account, pathId((request.params as { listId: string }).listId));
		refuseUnlessStatic(list, 'Adding items');
		const body = request.body as Record<string, unknown> | undefined;
		if (!body || typeof body !== 'object' || Array.isArray(body))
			throw badRequest('Invalid body', 'The body must be {"Criteria": [...]}');
		const extra = Object.keys(body).find((key) => key !== 'Criteria');
		if (extra)
			throw new ApiError(
				400,
				'Unexpected payload field',
				`${extra} is not an accepted field; send {"Criteria": [...]}`,
			);
		const criteria = parseCriteria(body.Criteria);
		const now = new Date().toISOString();
		const entered = findMatches(ctx, account, criteria).filter(
			(propId) => !hasMember(list, propId),
		);
		for (const propId of entered) list.members[propId] = now;
		fireEvents(
			ctx,
			account.id,
			list,
			entered.map((propId) => ({ type: DELIVERY_TRIGGER_TYPES.newMatch, propId })),
		);
		ctx.store.save();
		return { updateCount: entered.length };
	});

	app.delete('/v1/lists/:listId/items/:propId', async (request) => {
		const account = auth(request);
		const { listId, propId } = request.params as { listId: string; propId: string };
		const list = getList(ctx, account, pathId(listId));
		if (list.ListType === 'dynamic') {
			throw new ApiError(
				400,
				'Not applicable to dynamic lists',
				'A dynamic list follows its criteria; its items cannot be removed one by one',
			);
		}
		if (!hasMember(list, propId)) throw notFound();
		delete list.members[propId];
		ctx.store.save();
		return { deleteCount: 1 };
	});
};
