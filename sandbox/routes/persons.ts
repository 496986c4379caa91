import {
	PAGE_LIMITS,
	PERSON_FIELDSETS,
	PERSON_RECORD_FIELDSETS,
} from '../../nodes/PropRadar/shared/vocabulary';
import { charge, readPurchase } from '../charges';
import {
	findPerson,
	getPersons,
	personRecords,
	personState,
	type PersonRecordKind,
} from '../data/persons';
import { propertyExists } from '../data/properties';
import { ApiError, notFound } from '../errors';
import { pick, resolveFields } from '../fields';
import { auth, authBeforeBody, onlyParams, paging, type Query } from '../http';
import type { RouteModule } from '../types';

const DEFAULT_PERSON_FIELDS = ['PropID', 'PersonKey', 'PersonType', ...PERSON_FIELDSETS.default];

export const personRoutes: RouteModule = (app, ctx) => {
	app.get('/v1/properties/:propId/persons', async (request) => {
		const account = auth(request);
		const query = request.query as Query;
		onlyParams(query, ['Fields', 'Purchase']);
		const { propId } = request.params as { propId: string };
		if (!propertyExists(ctx, propId)) throw notFound();
		const fields = resolveFields('person', query.Fields, DEFAULT_PERSON_FIELDS);
		const purchase = readPurchase(query);
		const persons = getPersons(ctx, account, propId);
		const cost = charge(ctx, account, 'person', persons.length, purchase, `owners of ${propId}`);
		// PropID and PersonKey identify a record and come back whatever the fields, unless suppressed
		// (the documents allow `-PropID` and `-PersonKey`).
		const suppressed = String(query.Fields ?? '')
			.split(',')
			.map((name) => name.trim());
		const keep = [
			...new Set([
				...['PropID', 'PersonKey'].filter((field) => !suppressed.includes(`-${field}`)),
				...fields,
			]),
		];
		return { results: purchase ? persons.map((person) => pick(person, keep)) : [], ...cost };
	});

	for (const kind of Object.keys(PERSON_RECORD_FIELDSETS) as PersonRecordKind[]) {
		app.get(`/v1/persons/:personKey/${kind}`, async (request) => {
			const account = auth(request);
			const query = request.query as Query;
			onlyParams(query, ['Fields', 'Start', 'Limit', 'Purchase']);
			const { personKey } = request.params as { personKey: string };
			if (!findPerson(ctx, account, personKey)) throw notFound();
			const fields = resolveFields(kind, query.Fields, PERSON_RECORD_FIELDSETS[kind].Table);
			const { start, limit } = paging(query, PAGE_LIMITS.personRecords);
			const purchase = readPurchase(query);
			const records = personRecords(personKey, kind).slice(start, start + limit);
			const cost = charge(
				ctx,
				account,
				'personRecord',
				records.length,
				purchase,
				`${kind} of ${personKey}`,
			);
			return {
				results: purchase
					? records.map((record) => ({ PersonKey: personKey, ...pick(record, fields) }))
					: [],
				...cost,
			};
		});
	}

	for (const [path, what, kind] of [
		['Phone', 'phone', 'phone'],
		['Email', 'email', 'email'],
	] as const) {
		app.post(`/v1/persons/:personKey/${path}`, authBeforeBody(), async (request) => {
			const account = auth(request);
			const query = request.query as Query;
			onlyParams(query, ['Purchase']);
			const { personKey } = request.params as { personKey: string };
			if (!findPerson(ctx, account, personKey)) throw notFound();
			const purchase = readPurchase(query);
			const bought = (personState(ctx).purchases[account.id] ??= {});
			if (bought[personKey]?.[what]) {
				throw new ApiError(
					400,
					`${path} already purchased`,
					`The ${what} of ${personKey} was already purchased; it is in the ${path} field of the persons endpoint.`,
				);
			}
			const cost = charge(ctx, account, kind, 1, purchase, `${what} of ${personKey}`);
			if (!purchase) return { results: [], ...cost };
			(bought[personKey] ??= {})[what] = true;
			ctx.store.save();
			const person = findPerson(ctx, account, personKey)!;
			return {
				results: [{ PersonKey: personKey, PropID: person.PropID, [path]: person[path] }],
				...cost,
			};
		});
	}
};
