import {
	FIELD_SCOPES,
	isTransactionFieldName,
	MAX_TRANSACTION_FIELD_IDS,
	PAGE_LIMITS,
	transactionCustomFieldIds,
} from '../../nodes/PropRadar/shared/vocabulary';
import { charge, readPurchase, recordsCharged } from '../charges';
import { parseCriteria } from '../criteria';
import { getPersons } from '../data/persons';
import {
	allSearchable,
	getProperty,
	getSearchable,
	valuedByAvm,
	type SearchableProperty,
} from '../data/properties';
import { Seeded, usDate } from '../data/random';
import { badRequest, notFound } from '../errors';
import {
	fieldsFor,
	pick,
	resolveFields,
	resolvePropertyFields,
	type ResolvedFields,
} from '../fields';
import { auth, authBeforeBody, onlyParams, paging, sortRecords, type Query } from '../http';
import { findMatches } from '../lists/membership';
import { peekUserData } from '../lists/state';
import type { RouteModule, SandboxContext } from '../types';
import type { AccountSpec } from '../accounts';

const DEFAULT_PROPERTY_FIELDS = 'PropID,Overview';
const SEARCH_DEFAULT_FIELDS = 'PropID,Grid';

/** A full property as `account` reads it, with its saved levels and (if asked) its persons. */
function propertyRecord(
	ctx: SandboxContext,
	account: AccountSpec,
	propId: string,
	resolved: ResolvedFields,
): Record<string, unknown> {
	const fields = fieldsFor(resolved, valuedByAvm(getSearchable(ctx, propId)!));
	const data = peekUserData(ctx, account.id, propId);
	const record: Record<string, unknown> = {
		...getProperty(ctx, propId, fields),
		InterestLevel: data.InterestLevel ?? 0,
		StatusLevel: data.StatusLevel ?? 0,
	};
	if (fields.includes('Persons')) {
		record.Persons = getPersons(ctx, account, propId).map((person) =>
			pick(person, ['PersonKey', 'PersonType', ...FIELD_SCOPES.person.fieldsets.overview]),
		);
	}
	return pick(record, fields);
}

function propId(request: { params: unknown }): string {
	return (request.params as { propId: string }).propId;
}

function requireProperty(ctx: SandboxContext, id: string): SearchableProperty {
	const property = getSearchable(ctx, id);
	if (!property) throw notFound();
	return property;
}

/**
 * Comparables of a subject: same city and property type, then close in every value the query may
 * override (the property document, see docs/api.md: "Beds, Bath and SqFt"; `Baths` is taken as
 * another name of `Bath`, and `YearBuilt` too). Each given override replaces the subject's own
 * value in that comparison.
 */
function comps(
	ctx: SandboxContext,
	subject: SearchableProperty,
	kind: 'sales' | 'forsale',
	overrides: Query,
): Record<string, unknown>[] {
	const value = (name: string, own: number | null) =>
		overrides[name] !== undefined ? Number(overrides[name]) : own;
	const beds = value('Beds', subject.Beds);
	const baths =
		overrides.Bath !== undefined ? Number(overrides.Bath) : value('Baths', subject.Baths);
	const sqft = value('SqFt', subject.SqFt);
	const yearBuilt = value('YearBuilt', subject.YearBuilt);
	const near = (own: number | null, wanted: number | null, within: number) =>
		wanted === null || own === null || Math.abs(own - wanted) <= within;
	const rng = new Seeded(`${subject.PropID}:comps:${kind}`);
	const start = rng.int(0, 5000);
	const nearby = allSearchable(ctx)
		.slice(start)
		.filter(
			(p) =>
				p.City === subject.City &&
				p.PropID !== subject.PropID &&
				p.PType === subject.PType &&
				near(p.Beds, beds, 1) &&
				near(p.Baths, baths, 1) &&
				near(p.YearBuilt, yearBuilt, 20) &&
				(!sqft || !p.SqFt || Math.abs(p.SqFt - sqft) <= sqft * 0.25),
		)
		.slice(0, rng.int(3, 8));
	return nearby.map((p) => ({
		PropID: p.PropID,
		Address: p.Address,
		City: p.City,
		State: p.State,
		ZipFive: p.ZipFive,
		PType: p.PType,
		Beds: p.Beds,
		Baths: p.Baths,
		SqFt: p.SqFt,
		YearBuilt: p.YearBuilt,
		...(kind === 'sales'
			? {
					SalePrice: p.LastTransferValue ?? p.AVM,
					SaleDate: p.LastTransferRecDate ?? usDate(rng.int(10, 365)),
				}
			: {
					ListingPrice: p.ListingPrice ?? p.AVM,
					ListingDate: usDate(rng.int(1, 120)),
					DaysOnMarket: rng.int(1, 120),
				}),
		DistanceMiles: rng.float(0.1, 2.5, 2),
	}));
}

function parcels(subject: SearchableProperty): Record<string, unknown>[] {
	const rng = new Seeded(`${subject.PropID}:parcel`);
	const pieces = rng.chance(0.2) ? rng.int(2, 3) : 1;
	const size = 0.0004;
	return Array.from({ length: pieces }, (_, piece) => {
		const lng = subject.Longitude + piece * size * 1.5;
		const lat = subject.Latitude;
		return {
			type: 'Feature',
			properties: { PropID: subject.PropID, APN: subject.APN, piece: piece + 1, pieces },
			geometry: {
				type: 'Polygon',
				coordinates: [
					[
						[lng, lat],
						[lng + size, lat],
						[lng + size, lat + size],
						[lng, lat + size],
						[lng, lat],
					],
				],
			},
		};
	});
}

function evictions(subject: SearchableProperty): Record<string, unknown>[] {
	const rng = new Seeded(`${subject.PropID}:evictions`);
	const count = rng.chance(0.2) ? rng.int(1, 2) : 0;
	return Array.from({ length: count }, (_, i) => ({
		EvictionID: `EV${subject.PropID.slice(1)}${i + 1}`,
		CaseNumber: `EV-${rng.digits(6)}`,
		FilingDate: usDate(rng.int(30, 1500)),
		Plaintiff: `${subject.Owner}`,
		Defendant: 'Tenant of record',
		Status: rng.pick(['Filed', 'Judgment', 'Dismissed']),
	}));
}

function transactions(
	subject: SearchableProperty,
	fieldsParam: string | undefined,
): Record<string, unknown>[] {
	const names = (fieldsParam ?? 'Standard')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	// A leading - suppresses a field, a fieldset or a custom field ID (the property document).
	const known = (name: string) => isTransactionFieldName(name.replace(/^-/, ''));
	const badId = names.find((name) => !known(name) && !/^-?\w+$/.test(name));
	if (badId)
		throw badRequest('Invalid Fields', `Fields: "${badId}" is not a field or custom field ID`);
	const customIds = transactionCustomFieldIds(names);
	if (customIds.length > MAX_TRANSACTION_FIELD_IDS)
		throw badRequest(
			'Too many custom fields',
			`Fields: at most ${MAX_TRANSACTION_FIELD_IDS} custom field IDs, got ${customIds.length}`,
		);
	const fields = resolveFields(
		'transaction',
		names.filter(known).join(',') || undefined,
		FIELD_SCOPES.transaction.fieldsets.Standard,
	);
	const rng = new Seeded(`${subject.PropID}:transactions`);
	return Array.from({ length: rng.int(1, 5) }, (_, i) => {
		const record: Record<string, unknown> = {
			TransactionID: `T${subject.PropID.slice(1)}${i + 1}`,
			RecordingDate: usDate(rng.int(30, 9000)),
			DocumentType: rng.pick([
				'Grant Deed',
				'Deed of Trust',
				'Quitclaim',
				'Notice of Default',
				'Reconveyance',
			]),
			DocumentNumber: rng.digits(9),
			Amount: rng.int(50, 900) * 1000,
			Buyer: subject.Owner,
			Seller: `Seller ${rng.int(1, 99)}`,
			Lender: rng.pick(['First Bank', 'Coastal Credit Union', 'National Mortgage', null]),
			LoanAmount: rng.int(0, 700) * 1000,
			LoanType: rng.pick(['Conventional', 'FHA', 'VA', null]),
		};
		const out = pick(record, fields);
		for (const id of customIds) out[`Custom_${id}`] = `value ${rng.int(1, 999)}`;
		return out;
	});
}

export const propertyRoutes: RouteModule = (app, ctx) => {
	app.get('/v1/properties/:propId', async (request) => {
		const account = auth(request);
		const query = request.query as Query;
		onlyParams(query, ['Fields', 'Purchase']);
		const id = propId(request);
		requireProperty(ctx, id);
		const fields = resolvePropertyFields('property', query.Fields, DEFAULT_PROPERTY_FIELDS);
		const purchase = readPurchase(query);
		const cost = charge(ctx, account, 'property', 1, purchase, `property ${id}`);
		return { results: purchase ? [propertyRecord(ctx, account, id, fields)] : [], ...cost };
	});

	app.post('/v1/properties', authBeforeBody(), async (request) => {
		const account = auth(request);
		const query = request.query as Query;
		onlyParams(query, ['Fields', 'Start', 'Limit', 'Sort', 'Dir', 'Purchase']);
		const body = request.body as Record<string, unknown> | undefined;
		if (!body || typeof body !== 'object' || Array.isArray(body))
			throw badRequest('Invalid body', 'The body must be {"Criteria": [...]}');
		const extra = Object.keys(body).find((key) => key !== 'Criteria');
		if (extra)
			throw badRequest(
				'Unexpected payload field',
				`${extra} is not accepted in the body; Start, Limit, Sort, Dir, Fields and Purchase go in the query string`,
			);
		const criteria = parseCriteria(body.Criteria);
		const fields = resolvePropertyFields('property', query.Fields, SEARCH_DEFAULT_FIELDS);
		const { start, limit } = paging(query, PAGE_LIMITS.properties);
		const purchase = readPurchase(query);
		let matches = findMatches(ctx, account, criteria);
		if (query.Sort) {
			const rows = matches.map(
				(id) => getSearchable(ctx, id) as unknown as Record<string, unknown>,
			);
			matches = sortRecords(rows, query, Object.keys(rows[0] ?? { PropID: '' })).map((row) =>
				String(row.PropID),
			);
		}
		const page = matches.slice(start, start + limit);
		const cost = charge(
			ctx,
			account,
			'property',
			page.length,
			purchase,
			`property search, ${page.length} properties`,
		);
		return {
			results: purchase ? page.map((id) => propertyRecord(ctx, account, id, fields)) : [],
			totalResultCount: matches.length,
			...cost,
		};
	});

	const subResource = (
		path: string,
		build: (subject: SearchableProperty, query: Query) => Record<string, unknown>[],
		allowed: string[],
	) => {
		app.get(`/v1/properties/:propId/${path}`, async (request) => {
			const account = auth(request);
			const query = request.query as Query;
			onlyParams(query, ['Purchase', ...allowed]);
			const subject = requireProperty(ctx, propId(request));
			const purchase = readPurchase(query);
			const records = build(subject, query);
			// One charge for the property's data, whatever the number of records; none when there is nothing.
			const cost = charge(
				ctx,
				account,
				'propertyDetail',
				recordsCharged('propertyDetail', records.length),
				purchase,
				`${path} of ${subject.PropID}`,
			);
			return { results: purchase ? records : [], ...cost, resultCount: records.length };
		});
	};
	subResource('evictions', (subject) => evictions(subject), []);
	const overrideParams = ['Beds', 'Bath', 'Baths', 'SqFt', 'YearBuilt'];
	const checkOverrides = (query: Query) => {
		for (const name of overrideParams) {
			if (query[name] !== undefined && !/^\d+(\.\d+)?$/.test(query[name]!))
				throw badRequest(`Invalid ${name}`, `${name} must be a number`);
		}
		if (
			query.Bath !== undefined &&
			query.Baths !== undefined &&
			Number(query.Bath) !== Number(query.Baths)
		) {
			throw badRequest('Invalid Bath', 'Bath and Baths name the same override; give one of them');
		}
	};
	subResource(
		'comps/sales',
		(subject, query) => (checkOverrides(query), comps(ctx, subject, 'sales', query)),
		overrideParams,
	);
	subResource(
		'comps/forsale',
		(subject, query) => (checkOverrides(query), comps(ctx, subject, 'forsale', query)),
		overrideParams,
	);
	subResource('parcels', (subject) => parcels(subject), []);
	subResource('transactions', (subject, query) => transactions(subject, query.Fields), ['Fields']);
};
