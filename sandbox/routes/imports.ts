import {
	DELIVERY_TRIGGER_TYPES,
	IMPORT_ITEM_FIELDS,
	IMPORT_RECORD_FIELDS,
	PAGE_LIMITS,
	PERSON_STATUSES,
	PROPERTY_STATUSES,
} from '../../nodes/PropRadar/shared/vocabulary';
import { charge, readPurchase } from '../charges';
import { getPersons } from '../data/persons';
import { propertyExists } from '../data/properties';
import { ApiError, badRequest, notFound } from '../errors';
import { pick, resolveFields } from '../fields';
import {
	auth,
	authBeforeBody,
	commaList,
	onlyFields,
	onlyParams,
	paging,
	pathId,
	sortRecords,
	wholeNumber,
	type Query,
} from '../http';
import { fireEvents } from '../lists/automations';
import { matchRecord, revertItem } from '../lists/imports';
import { getList, hasMember, listsState, type ImportItem, type StoredList } from '../lists/state';
import type { RouteModule } from '../types';

// Import routes answer 404 instead of 401 without a token (the lists document, Authentication 5).
const hidden = { hideExistence: true };
const DEFAULT_RESULT_FIELDS = [
	'ListImportItemID',
	'PropertyStatus',
	'PersonStatus',
	'MatchScore',
	'PropID',
	'PersonKey',
];

function importList(list: StoredList): StoredList {
	if (list.ListType !== 'import' || list.ImportSource !== 'api') {
		throw badRequest(
			'Not an API import list',
			`List ${list.ListID} is not an import list with ImportSource=api. Create one with POST /v1/lists {"ListType": "import", "ImportSource": "api", "ListName": ...}`,
		);
	}
	return list;
}

function itemRecord(item: ImportItem): Record<string, unknown> {
	const { revert, ...record } = item;
	void revert;
	return record;
}

function syncMembership(list: StoredList, propId: string | null): void {
	if (!propId) return;
	const used = list.imports.some(
		(item) => item.PropID === propId && ['Matched', 'Selected'].includes(item.PropertyStatus),
	);
	if (!used) delete list.members[propId];
}

export const importRoutes: RouteModule = (app, ctx) => {
	app.post(
		'/v1/lists/:listId/import/items',
		authBeforeBody({ ...hidden, acceptAccessTokenHeader: true }),
		async (request) => {
			const account = auth(request, { ...hidden, acceptAccessTokenHeader: true });
			const query = request.query as Query;
			onlyParams(query, ['Fields', 'Purchase']);
			const list = importList(
				getList(ctx, account, pathId((request.params as { listId: string }).listId)),
			);
			const purchase = readPurchase(query);
			const fields = resolveFields('importItem', query.Fields, DEFAULT_RESULT_FIELDS);
			if (!Array.isArray(request.body))
				throw badRequest('Invalid body', 'The body must be a JSON array of import records');
			const records = request.body as unknown[];
			// A plain loop: an import sends up to thousands of records in one request.
			for (let index = 0; index < records.length; index++) {
				const record = records[index] as Record<string, unknown>;
				if (typeof record !== 'object' || record === null || Array.isArray(record))
					throw badRequest('Invalid record', `[${index}] must be an object`);
				onlyFields(record, IMPORT_RECORD_FIELDS, `[${index}]`);
				for (const key in record) {
					if (typeof record[key] !== 'string')
						throw badRequest('Invalid record', `[${index}].${key} must be a string`);
				}
			}
			const cost = charge(
				ctx,
				account,
				'importRecord',
				records.length,
				purchase,
				`import of ${records.length} records into list ${list.ListID}`,
			);
			if (!purchase) return { results: [], ...cost };
			const state = listsState(ctx);
			const now = new Date().toISOString();
			const entered: string[] = [];
			const items = (records as Array<Record<string, string>>).map((record) => {
				const item = matchRecord(ctx, account, list, record, state.nextImportItemId++);
				list.imports.push(item);
				if (item.PropID && item.PropertyStatus === 'Matched' && !hasMember(list, item.PropID)) {
					list.members[item.PropID] = now;
					entered.push(item.PropID);
				}
				return item;
			});
			fireEvents(
				ctx,
				account.id,
				list,
				entered.map((propId) => ({ type: DELIVERY_TRIGGER_TYPES.newMatch, propId })),
			);
			ctx.store.save();
			return { results: items.map((item) => pick(itemRecord(item), fields)), ...cost };
		},
	);

	app.get('/v1/lists/:listId/import/items', async (request) => {
		const account = auth(request, hidden);
		const query = request.query as Query;
		onlyParams(query, [
			'Fields',
			'Limit',
			'Start',
			'Sort',
			'Dir',
			'MatchScore',
			'PropertyStatus',
			'PersonStatus',
		]);
		const list = getList(ctx, account, pathId((request.params as { listId: string }).listId));
		const fields = resolveFields('importItem', query.Fields, IMPORT_ITEM_FIELDS);
		const { start, limit } = paging(query, PAGE_LIMITS.importItems);
		let items = list.imports.map(itemRecord);
		if (query.MatchScore !== undefined) {
			const min = wholeNumber(query.MatchScore, 'MatchScore', { max: 100 });
			items = items.filter((item) => Number(item.MatchScore) >= min);
		}
		for (const [name, allowed] of [
			['PropertyStatus', PROPERTY_STATUSES],
			['PersonStatus', PERSON_STATUSES],
		] as const) {
			if (query[name] === undefined) continue;
			const wanted = commaList(query[name]);
			const bad = wanted.find((value) => !(allowed as readonly string[]).includes(value));
			if (bad)
				throw badRequest(
					`Invalid ${name}`,
					`${name}: "${bad}" is not one of ${allowed.join(', ')}`,
				);
			items = items.filter((item) => wanted.includes(String(item[name])));
		}
		items = sortRecords(items, query, IMPORT_ITEM_FIELDS);
		return { results: items.slice(start, start + limit).map((item) => pick(item, fields)) };
	});

	app.patch('/v1/lists/:listId/import/items/:itemId', authBeforeBody(hidden), async (request) => {
		const account = auth(request, hidden);
		const { listId, itemId } = request.params as { listId: string; itemId: string };
		const list = getList(ctx, account, pathId(listId));
		const item = list.imports.find((candidate) => candidate.ListImportItemID === pathId(itemId));
		if (!item) throw notFound();
		const body = (request.body ?? {}) as Record<string, unknown>;
		onlyFields(body, ['PersonKey', 'PropID']);
		if (body.PropID === undefined && body.PersonKey === undefined)
			throw badRequest('Nothing to update', 'Give PersonKey and/or PropID');
		for (const key of ['PersonKey', 'PropID'] as const) {
			if (body[key] !== undefined && typeof body[key] !== 'string')
				throw badRequest(`Invalid ${key}`, `${key} must be a string`);
		}
		// Everything is checked before anything changes: a refused PATCH leaves the match as it was.
		const targetPropId = (body.PropID as string | undefined) ?? item.PropID;
		if (body.PropID !== undefined && !propertyExists(ctx, body.PropID as string)) {
			throw new ApiError(
				404,
				'Resource does not exist for given id',
				`PropID ${String(body.PropID)} does not exist`,
			);
		}
		if (body.PersonKey !== undefined) {
			const candidates = targetPropId
				? getPersons(ctx, account, targetPropId).filter(
						(person) => person.PersonKey !== item.revert?.addedPerson,
					)
				: [];
			if (!candidates.some((person) => person.PersonKey === body.PersonKey)) {
				throw badRequest(
					'Invalid PersonKey',
					`PersonKey ${String(body.PersonKey)} is not a person of property ${targetPropId ?? '(none)'}`,
				);
			}
		}
		revertItem(ctx, account, item);
		const previousPropId = item.PropID;
		if (body.PropID !== undefined) {
			item.PropID = body.PropID as string;
			item.PropertyStatus = 'Selected';
			item.MatchScore = 100;
		}
		const persons = item.PropID ? getPersons(ctx, account, item.PropID) : [];
		if (body.PersonKey !== undefined) {
			const person = persons.find((candidate) => candidate.PersonKey === body.PersonKey);
			if (!person)
				throw badRequest(
					'Invalid PersonKey',
					`PersonKey ${String(body.PersonKey)} is not a person of property ${item.PropID ?? '(none)'}`,
				);
			item.PersonKey = person.PersonKey;
			item.PersonStatus = person.isPrimaryContact ? 'Selected as Primary' : 'Selected';
		} else if (
			item.PersonKey &&
			!persons.some((candidate) => candidate.PersonKey === item.PersonKey)
		) {
			item.PersonStatus = 'No Longer at Property';
		}
		if (item.PropID && !hasMember(list, item.PropID)) {
			list.members[item.PropID] = new Date().toISOString();
			fireEvents(ctx, account.id, list, [
				{ type: DELIVERY_TRIGGER_TYPES.newMatch, propId: item.PropID },
			]);
		}
		if (previousPropId !== item.PropID) syncMembership(list, previousPropId);
		ctx.store.save();
		return { results: [itemRecord(item)] };
	});

	app.delete('/v1/lists/:listId/import/items/:itemId', async (request) => {
		const account = auth(request, hidden);
		const { listId, itemId } = request.params as { listId: string; itemId: string };
		const list = getList(ctx, account, pathId(listId));
		const index = list.imports.findIndex(
			(candidate) => candidate.ListImportItemID === pathId(itemId),
		);
		if (index < 0) throw notFound();
		const [item] = list.imports.splice(index, 1);
		revertItem(ctx, account, item);
		syncMembership(list, item.PropID);
		ctx.store.save();
		return { deleteCount: 1 };
	});
};
