import {
	EMPTY_AUTOMATION,
	IMPORT_SOURCES,
	IMPORT_TYPES,
	LIST_FIELDS,
	LIST_NAME_MAX_CHARACTERS,
	LIST_TYPES,
} from '../../nodes/PropRadar/shared/vocabulary';
import { parseCriteria } from '../criteria';
import { badRequest } from '../errors';
import { pick, resolveFields } from '../fields';
import {
	auth,
	authBeforeBody,
	onlyParams,
	pathId,
	sortRecords,
	wholeNumber,
	type Query,
} from '../http';
import { findMatches, memberCounts, recompute } from '../lists/membership';
import { accountLists, getList, listsState, type StoredList } from '../lists/state';
import type { RouteModule } from '../types';

/** A list name cut at 50 characters (code points, so an emoji is never split), as the service truncates it. */
const listName = (name: unknown) => [...String(name)].slice(0, LIST_NAME_MAX_CHARACTERS).join('');
const IMPORT_ONLY = [
	'ImportSource',
	'ImportMatchThreshold',
	'ImportType',
	'ImportContactOptions',
] as const;

const contactOptions = {
	type: 'object',
	additionalProperties: false,
	properties: {
		add_as_primary_contact: { type: 'boolean' },
		set_as_primary_contact: { type: 'boolean' },
	},
};

const createSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['ListName'],
	properties: {
		ListName: { type: 'string', minLength: 1 },
		Criteria: { type: 'array' },
		ListType: { enum: LIST_TYPES },
		isMonitored: { enum: [0, 1] },
		ImportSource: { enum: IMPORT_SOURCES },
		ImportMatchThreshold: { type: 'integer', minimum: 0, maximum: 100 },
		ImportType: { enum: IMPORT_TYPES },
		ImportContactOptions: contactOptions,
		GroupName: { type: 'string' },
	},
};

const patchSchema = {
	type: 'object',
	additionalProperties: false,
	properties: {
		ListName: { type: 'string', minLength: 1 },
		isMonitored: { enum: [0, 1] },
		ImportMatchThreshold: { type: 'integer', minimum: 0, maximum: 100 },
		ImportType: { enum: IMPORT_TYPES },
		ImportContactOptions: contactOptions,
		DisplayOrder: { type: 'integer', minimum: 0 },
	},
};

/** A list as the read endpoints return it. */
export function listRecord(list: StoredList): Record<string, unknown> {
	const lastViewed = list.LastViewed;
	const counts = memberCounts(list);
	return {
		ListID: list.ListID,
		ListName: list.ListName,
		ListType: list.ListType,
		isMonitored: list.isMonitored,
		...(list.ListType === 'import'
			? {
					ImportSource: list.ImportSource,
					ImportMatchThreshold: list.ImportMatchThreshold,
					ImportType: list.ImportType,
					ImportContactOptions: list.ImportContactOptions,
				}
			: {}),
		GroupName: list.GroupName,
		DisplayOrder: list.DisplayOrder,
		TotalCount: String(counts.total),
		// Only a dynamic list keeps its Criteria (a static one is filled from them once).
		...(list.ListType === 'dynamic' ? { Criteria: list.Criteria } : {}),
		LastViewed: lastViewed,
		NewSinceLastViewedCount: counts.newSinceLastViewed,
		MonitoringStartedOn: list.MonitoringStartedOn,
		TotalImportItems: list.imports.length,
		TotalProcessedImportItems: list.imports.filter((item) => item.PropertyStatus !== 'Pending')
			.length,
	};
}

export const listRoutes: RouteModule = (app, ctx) => {
	app.post(
		'/v1/lists',
		{ schema: { body: createSchema }, ...authBeforeBody() },
		async (request) => {
			const account = auth(request);
			const body = request.body as Record<string, unknown>;
			const criteriaGiven = body.Criteria !== undefined;
			const ListType =
				(body.ListType as StoredList['ListType'] | undefined) ??
				(criteriaGiven ? 'dynamic' : 'static');
			if (criteriaGiven && ListType === 'import') {
				throw badRequest(
					'Criteria not allowed',
					'Criteria: an import list takes no Criteria; it is built from the records imported into it',
				);
			}
			if (ListType === 'dynamic' && !criteriaGiven)
				throw badRequest('Criteria required', 'Criteria: a dynamic list needs Criteria');
			if (ListType !== 'import') {
				const importField = IMPORT_ONLY.find((field) => body[field] !== undefined);
				if (importField)
					throw badRequest(
						'Import field on a non-import list',
						`${importField}: only import lists take it`,
					);
			}
			const criteria = criteriaGiven ? parseCriteria(body.Criteria) : undefined;
			const state = listsState(ctx);
			const now = new Date().toISOString();
			const list: StoredList = {
				ListID: state.nextListId++,
				ListName: listName(body.ListName),
				ListType,
				isMonitored: (body.isMonitored as number | undefined) ?? 0,
				GroupName: (body.GroupName as string | undefined) ?? '',
				DisplayOrder: 0,
				// A static list is filled from its Criteria once, here; only a dynamic list keeps them.
				Criteria: ListType === 'dynamic' ? criteria : undefined,
				members: {},
				CreatedAt: now,
				LastViewed: null,
				MonitoringStartedOn: body.isMonitored === 1 ? now : null,
				automation: { ...EMPTY_AUTOMATION },
				imports: [],
			};
			if (ListType === 'import') {
				list.ImportSource = (body.ImportSource as string | undefined) ?? 'file';
				list.ImportMatchThreshold = (body.ImportMatchThreshold as number | undefined) ?? 80;
				list.ImportType = (body.ImportType as string | undefined) ?? 'property';
				list.ImportContactOptions =
					(body.ImportContactOptions as StoredList['ImportContactOptions']) ?? {
						add_as_primary_contact: false,
						set_as_primary_contact: false,
					};
			}
			if (ListType === 'dynamic') recompute(ctx, account, list);
			if (ListType === 'static' && criteria) {
				for (const propId of findMatches(ctx, account, criteria)) list.members[propId] = now;
			}
			accountLists(ctx, account)[String(list.ListID)] = list;
			ctx.store.save();
			return {
				results: [{ ListID: list.ListID, TotalCount: String(Object.keys(list.members).length) }],
			};
		},
	);

	app.get('/v1/lists', async (request) => {
		const account = auth(request);
		const query = request.query as Query;
		onlyParams(query, [
			'Fields',
			'ListType',
			'isMonitored',
			'ImportType',
			'GroupName',
			'DisplayOrder',
			'Limit',
			'Sort',
			'Dir',
		]);
		const fields = resolveFields('list', query.Fields, LIST_FIELDS);
		let lists = Object.values(accountLists(ctx, account)).map(listRecord);
		if (query.ListType) lists = lists.filter((list) => list.ListType === query.ListType);
		if (query.isMonitored !== undefined)
			lists = lists.filter(
				(list) =>
					String(list.isMonitored) ===
					(query.isMonitored === 'true'
						? '1'
						: query.isMonitored === 'false'
							? '0'
							: query.isMonitored),
			);
		if (query.ImportType) lists = lists.filter((list) => list.ImportType === query.ImportType);
		if (query.GroupName !== undefined)
			lists = lists.filter((list) => list.GroupName === query.GroupName);
		if (query.DisplayOrder !== undefined)
			lists = lists.filter(
				(list) => list.DisplayOrder === wholeNumber(query.DisplayOrder, 'DisplayOrder'),
			);
		lists.sort(
			(a, b) =>
				Number(b.TotalCount) - Number(a.TotalCount) ||
				String(a.ListName).localeCompare(String(b.ListName)),
		);
		lists = sortRecords(lists, query, ['ListName', 'TotalCount', 'DisplayOrder'], ['DisplayOrder']);
		if (query.Limit !== undefined)
			lists = lists.slice(0, wholeNumber(query.Limit, 'Limit', { min: 1 }));
		return { results: lists.map((list) => pick(list, fields)) };
	});

	app.get('/v1/lists/:listId', async (request) => {
		const account = auth(request);
		const query = request.query as Query;
		onlyParams(query, ['Fields']);
		const list = getList(ctx, account, pathId((request.params as { listId: string }).listId));
		return { results: [pick(listRecord(list), resolveFields('list', query.Fields, LIST_FIELDS))] };
	});

	app.patch(
		'/v1/lists/:listId',
		{ schema: { body: patchSchema }, ...authBeforeBody() },
		async (request) => {
			const account = auth(request);
			const list = getList(ctx, account, pathId((request.params as { listId: string }).listId));
			const body = request.body as Record<string, unknown>;
			if (Object.keys(body).length === 0)
				throw badRequest('Nothing to update', 'Give at least one field to change');
			if (list.ListType !== 'import') {
				const importField = IMPORT_ONLY.find((field) => body[field] !== undefined);
				if (importField)
					throw badRequest(
						'Import field on a non-import list',
						`${importField}: only import lists take it`,
					);
			}
			if (body.ListName !== undefined) list.ListName = listName(body.ListName);
			if (body.DisplayOrder !== undefined) list.DisplayOrder = body.DisplayOrder as number;
			if (body.ImportMatchThreshold !== undefined)
				list.ImportMatchThreshold = body.ImportMatchThreshold as number;
			if (body.ImportType !== undefined) list.ImportType = body.ImportType as string;
			// Replaced as a whole, as a PATCH of a field does: the documents do not say the service merges it.
			if (body.ImportContactOptions !== undefined)
				list.ImportContactOptions = {
					...(body.ImportContactOptions as StoredList['ImportContactOptions']),
				};
			if (body.isMonitored !== undefined && body.isMonitored !== list.isMonitored) {
				list.isMonitored = body.isMonitored as number;
				list.MonitoringStartedOn = list.isMonitored ? new Date().toISOString() : null;
				if (list.isMonitored) recompute(ctx, account, list);
			}
			ctx.store.save();
			return { updateCount: 1 };
		},
	);

	app.delete('/v1/lists/:listId', async (request) => {
		const account = auth(request);
		const listId = pathId((request.params as { listId: string }).listId);
		getList(ctx, account, listId);
		delete accountLists(ctx, account)[String(listId)];
		ctx.store.save();
		return { deleteCount: 1 };
	});
};
