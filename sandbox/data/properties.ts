import { PROPERTY_FIELDS } from '../../nodes/PropRadar/shared/vocabulary';
import type { SandboxContext } from '../types';
import { own } from '../store';
import { Seeded, usDate } from './random';

/**
 * The sandbox's properties: `PROPERTY_COUNT` of them, PropIDs `P000001`..., each derived from its
 * PropID, so nothing is generated at start. Searches run over a compact index of the searchable
 * fields, built on first use; full records (every field of every fieldset of the property document) are made
 * when one is read. Simulated changes and added properties live in the store.
 */
export const PROPERTY_COUNT = 60_000;

export type PropertyRecord = Record<string, unknown> & { PropID: string };

interface Area {
	State: string;
	County: string;
	City: string;
	zipBase: number;
	lat: number;
	lng: number;
}

const AREAS: Area[] = [
	{ State: 'OR', County: 'Multnomah', City: 'Portland', zipBase: 97201, lat: 45.52, lng: -122.68 },
	{ State: 'OR', County: 'Lane', City: 'Eugene', zipBase: 97401, lat: 44.05, lng: -123.09 },
	{ State: 'OR', County: 'Deschutes', City: 'Bend', zipBase: 97701, lat: 44.06, lng: -121.31 },
	{ State: 'WA', County: 'King', City: 'Seattle', zipBase: 98101, lat: 47.61, lng: -122.33 },
	{ State: 'WA', County: 'Spokane', City: 'Spokane', zipBase: 99201, lat: 47.66, lng: -117.43 },
	{
		State: 'CA',
		County: 'Sacramento',
		City: 'Sacramento',
		zipBase: 95814,
		lat: 38.58,
		lng: -121.49,
	},
	{ State: 'CA', County: 'San Diego', City: 'San Diego', zipBase: 92101, lat: 32.72, lng: -117.16 },
	{ State: 'TX', County: 'Travis', City: 'Austin', zipBase: 78701, lat: 30.27, lng: -97.74 },
	{ State: 'TX', County: 'Harris', City: 'Houston', zipBase: 77002, lat: 29.76, lng: -95.37 },
	{ State: 'FL', County: 'Orange', City: 'Orlando', zipBase: 32801, lat: 28.54, lng: -81.38 },
	{ State: 'FL', County: 'Duval', City: 'Jacksonville', zipBase: 32202, lat: 30.33, lng: -81.66 },
	{ State: 'AZ', County: 'Maricopa', City: 'Phoenix', zipBase: 85003, lat: 33.45, lng: -112.07 },
];

const STREETS = [
	'Oak',
	'Maple',
	'Cedar',
	'Pine',
	'Elm',
	'Washington',
	'Lincoln',
	'Park',
	'Lake',
	'Hill',
	'River',
	'Sunset',
	'Main',
	'Highland',
	'Division',
];
const SUFFIXES = ['St', 'Ave', 'Rd', 'Dr', 'Ln', 'Ct', 'Blvd', 'Way'];
const PTYPES = ['SFR', 'SFR', 'SFR', 'SFR', 'CND', 'MFR', 'LND', 'MOB'];
const ADVANCED: Record<string, string> = {
	SFR: 'Single Family Residence',
	CND: 'Condominium',
	MFR: 'Duplex',
	LND: 'Vacant Land',
	MOB: 'Mobile Home',
};
const STAGES = ['Preforeclosure', 'Auction', 'Bank Owned'];
const LISTING = ['Active', 'Pending', 'Expired', 'Sold', 'Withdrawn'];
const FIRST = [
	'James',
	'Mary',
	'Robert',
	'Patricia',
	'John',
	'Jennifer',
	'Michael',
	'Linda',
	'David',
	'Elizabeth',
	'Maria',
	'Wei',
	'Carlos',
	'Aisha',
	'Olga',
];
const LAST = [
	'Smith',
	'Johnson',
	'Williams',
	'Brown',
	'Jones',
	'Garcia',
	'Miller',
	'Davis',
	'Rodriguez',
	'Martinez',
	'Nguyen',
	'Kim',
	'Patel',
	'Kowalski',
	'Okafor',
];

export const NAMES = { FIRST, LAST };

/** The searchable fields of a property: what criteria and list-item filters look at. */
export interface SearchableProperty {
	PropID: string;
	State: string;
	County: string;
	City: string;
	ZipFive: number;
	Address: string;
	APN: string;
	PType: string;
	AdvancedPropertyType: string;
	Beds: number | null;
	Baths: number | null;
	SqFt: number | null;
	YearBuilt: number | null;
	Pool: number;
	AVM: number;
	TotalLoanBalance: number;
	AvailableEquity: number;
	EquityPercent: number;
	inForeclosure: number;
	ForeclosureStage: string | null;
	isListedForSale: number;
	ListingStatus: string | null;
	ListingPrice: number | null;
	LastTransferRecDate: string | null;
	LastTransferValue: number | null;
	isSameMailingOrExempt: number;
	isFreeAndClear: number;
	isSiteVacant: number;
	inTaxDelinquency: number;
	Owner: string;
	Latitude: number;
	Longitude: number;
}

export function propIdOf(index: number): string {
	return `P${String(index).padStart(6, '0')}`;
}

function indexOf(propId: string): number | undefined {
	const match = /^P(\d{6})$/.exec(propId);
	if (!match) return undefined;
	const index = Number(match[1]);
	return index >= 1 && index <= PROPERTY_COUNT ? index : undefined;
}

function generateSearchable(propId: string, index: number): SearchableProperty {
	const rng = new Seeded(`${propId}:core`);
	const area = AREAS[index % AREAS.length];
	const PType = rng.pick(PTYPES);
	const land = PType === 'LND';
	const SqFt = land ? null : rng.chance(0.03) ? null : rng.int(600, 4200);
	const AVM = land ? rng.int(40, 400) * 1000 : rng.int(150, 1400) * 1000;
	const freeAndClear = rng.chance(0.25);
	const TotalLoanBalance = freeAndClear
		? 0
		: Math.round((AVM * rng.float(0.1, 1.15)) / 1000) * 1000;
	const inForeclosure = !freeAndClear && rng.chance(0.08);
	const listed = rng.chance(0.1);
	const sold = rng.chance(0.9);
	return {
		PropID: propId,
		State: area.State,
		County: area.County,
		City: area.City,
		ZipFive: area.zipBase + rng.int(0, 20),
		Address: `${rng.int(100, 9899)} ${rng.pick(STREETS)} ${rng.pick(SUFFIXES)}`,
		APN: `${rng.digits(3)}-${rng.digits(3)}-${rng.digits(3)}`,
		PType,
		AdvancedPropertyType: ADVANCED[PType],
		Beds: land ? null : rng.int(1, 6),
		Baths: land ? null : rng.int(2, 8) / 2,
		SqFt,
		YearBuilt: land ? null : rng.int(1900, 2024),
		Pool: !land && rng.chance(0.15) ? 1 : 0,
		AVM,
		TotalLoanBalance,
		AvailableEquity: AVM - TotalLoanBalance,
		EquityPercent: Math.round(((AVM - TotalLoanBalance) / AVM) * 100),
		inForeclosure: inForeclosure ? 1 : 0,
		ForeclosureStage: inForeclosure ? rng.pick(STAGES) : null,
		isListedForSale: listed ? 1 : 0,
		ListingStatus: listed ? 'Active' : rng.chance(0.1) ? rng.pick(LISTING) : null,
		ListingPrice: listed ? Math.round((AVM * rng.float(0.9, 1.2)) / 1000) * 1000 : null,
		LastTransferRecDate: sold ? usDate(rng.int(10, 365 * 30)) : null,
		LastTransferValue: sold ? Math.round((AVM * rng.float(0.4, 1.1)) / 1000) * 1000 : null,
		isSameMailingOrExempt: rng.chance(0.7) ? 1 : 0,
		isFreeAndClear: freeAndClear ? 1 : 0,
		isSiteVacant: rng.chance(0.05) ? 1 : 0,
		// Made as the fields outside the core are, from its own seed: the core's generator is not
		// drawn from, so the fields after it keep their values.
		inTaxDelinquency: flag(fieldSeed(propId, 'inTaxDelinquency')),
		Owner: `${rng.pick(FIRST)} ${rng.pick(LAST)}`,
		Latitude: Math.round((area.lat + rng.float(-0.15, 0.15, 5)) * 1e5) / 1e5,
		Longitude: Math.round((area.lng + rng.float(-0.15, 0.15, 5)) * 1e5) / 1e5,
	};
}

/** State kept by the store: simulated changes and properties added by simulation. */
interface PropertyState {
	patches: Record<string, Record<string, unknown>>;
	added: SearchableProperty[];
}

const upgraded = new WeakSet<PropertyState>();

function state(ctx: SandboxContext): PropertyState {
	const kept = ctx.store.slice<PropertyState>('properties', () => ({ patches: {}, added: [] }));
	if (!upgraded.has(kept)) {
		for (const property of kept.added) upgradeAdded(property);
		upgraded.add(kept);
	}
	return kept;
}

/**
 * An added property as a data file of an earlier sandbox kept it: vacancy under `isVacant`, no
 * `inTaxDelinquency`. Both become what they are now, with the values the property's records showed.
 */
function upgradeAdded(property: SearchableProperty & { isVacant?: number }): void {
	if (property.isSiteVacant === undefined) property.isSiteVacant = property.isVacant ?? 0;
	delete property.isVacant;
	if (property.inTaxDelinquency === undefined)
		property.inTaxDelinquency = flag(fieldSeed(property.PropID, 'inTaxDelinquency'));
}

let baseIndex: SearchableProperty[] | undefined;

/** The seeded properties' searchable fields, generated once on first use (about a second). */
function seeded(): SearchableProperty[] {
	if (!baseIndex) {
		baseIndex = new Array(PROPERTY_COUNT);
		for (let index = 1; index <= PROPERTY_COUNT; index++)
			baseIndex[index - 1] = generateSearchable(propIdOf(index), index);
	}
	return baseIndex;
}

/** The searchable fields of one property with simulated changes applied, or undefined. */
export function getSearchable(ctx: SandboxContext, propId: string): SearchableProperty | undefined {
	const index = indexOf(propId);
	const base =
		index !== undefined
			? baseIndex
				? baseIndex[index - 1]
				: generateSearchable(propId, index)
			: state(ctx).added.find((p) => p.PropID === propId);
	if (!base) return undefined;
	const patch = state(ctx).patches[propId];
	return patch ? ({ ...base, ...patch } as SearchableProperty) : base;
}

/** Every property, seeded and added, with changes applied. */
export function allSearchable(ctx: SandboxContext): SearchableProperty[] {
	const { patches, added } = state(ctx);
	const all = seeded();
	const patched =
		Object.keys(patches).length === 0
			? all
			: all.map((p) =>
					patches[p.PropID] ? ({ ...p, ...patches[p.PropID] } as SearchableProperty) : p,
				);
	return added.length === 0
		? patched
		: patched.concat(added.map((p) => ({ ...p, ...patches[p.PropID] }) as SearchableProperty));
}

/** Fields searches narrow by first: an index of the seeded properties per value, built on first use. */
export const INDEXED_FIELDS = ['State', 'County', 'City', 'ZipFive'] as const;
type IndexedField = (typeof INDEXED_FIELDS)[number];
const valueIndexes = new Map<IndexedField, Map<string, number[]>>();

/**
 * The properties whose `field` is one of `values` (case-insensitive), in PropID order, with changes
 * applied and added properties included: the candidates a search then checks in full.
 */
export function candidatesFor(
	ctx: SandboxContext,
	field: IndexedField,
	values: unknown[],
): SearchableProperty[] {
	const all = seeded();
	let index = valueIndexes.get(field);
	if (!index) {
		index = new Map();
		all.forEach((property, position) => {
			const key = String(property[field]).toLowerCase();
			const bucket = index!.get(key);
			if (bucket) bucket.push(position);
			else index!.set(key, [position]);
		});
		valueIndexes.set(field, index);
	}
	const { patches, added } = state(ctx);
	const keys = [...new Set(values.map((value) => String(value).toLowerCase()))];
	let positions: number[];
	if (keys.length === 1) {
		positions = index.get(keys[0]) ?? [];
	} else {
		const mask = new Uint8Array(all.length);
		for (const key of keys) for (const position of index.get(key) ?? []) mask[position] = 1;
		positions = [];
		for (let position = 0; position < mask.length; position++)
			if (mask[position]) positions.push(position);
	}
	const patched = Object.keys(patches).length > 0;
	const found = positions.map((position) => {
		const property = all[position];
		return patched && patches[property.PropID]
			? ({ ...property, ...patches[property.PropID] } as SearchableProperty)
			: property;
	});
	return found.concat(added.map((p) => ({ ...p, ...patches[p.PropID] }) as SearchableProperty));
}

/**
 * Whether the AVM (with AvailableEquity) best approximates the property's value, rather than the
 * assessed value (with TotalLoanBalance): so for a building, valued from comparable sales; vacant
 * land (PType LND), which has few comparable sales, is best approximated by its assessed value.
 * The Card, Mobile and Overview fieldsets show the pair this chooses (the property document).
 */
export function valuedByAvm(property: SearchableProperty): boolean {
	return property.PType !== 'LND';
}

export function propertyExists(ctx: SandboxContext, propId: string): boolean {
	return getSearchable(ctx, propId) !== undefined;
}

type FieldMaker = (rng: Seeded, core: SearchableProperty) => unknown;

/** The generator of one field of one property: each field has its own, seeded by the PropID and the field's name. */
function fieldSeed(propId: string, field: string): Seeded {
	return new Seeded(`${propId}:${field}`);
}

/** A flag field (isX, inX, hasX): 1 for one property in ten. */
function flag(rng: Seeded): number {
	return rng.chance(0.1) ? 1 : 0;
}

/** How each non-searchable field is made, decided once per field name from what the name says. */
function makerFor(field: string): FieldMaker {
	if (/^(is|in|has)[A-Z]/.test(field) || /^PropertyHasOpen/.test(field)) return flag;
	if (/URL$/.test(field)) {
		const kind = field.replace(/URL$/, '').toLowerCase();
		return (_rng, core) => `https://records.example/${kind}/${core.PropID}`;
	}
	if (/(Date|AsOf)$/.test(field))
		return (rng) => (rng.chance(0.8) ? usDate(rng.int(10, 3650)) : null);
	if (/Percent|Rate|CLTV|LTV/.test(field)) return (rng) => rng.float(0, 100, 1);
	if (
		/(Year|Stories|Units|Rooms|Installments|Months|DaysOnMarket|GarageSize|Position|NumberLoans)/.test(
			field,
		)
	)
		return (rng) => rng.int(0, 12);
	if (/(SqFt|Footage|LotSize$)/.test(field)) return (rng) => rng.int(500, 12000);
	if (
		/(Value|Amount|Price|Balance|Taxes|Bid|Rent|BreakEven|Payment|Sales|ForSale|ValuePerSF|PerSqFt|Paid|DownPayment)/.test(
			field,
		)
	) {
		return (rng) => rng.int(1, 900) * 1000;
	}
	if (/Phone$/.test(field))
		return (rng) => `(${rng.int(200, 989)}) ${rng.int(200, 989)}-${rng.digits(4)}`;
	if (field === 'OwnerFirstName') return (_rng, core) => core.Owner.split(' ')[0];
	if (field === 'OwnerLastName') return (_rng, core) => core.Owner.split(' ')[1];
	if (/^Owner(Address|City|State|ZipFive)$/.test(field)) {
		const key = field.replace('Owner', '') as 'Address' | 'City' | 'State' | 'ZipFive';
		return (rng, core) =>
			core.isSameMailingOrExempt || key !== 'Address' ? core[key] : `PO Box ${rng.int(100, 9999)}`;
	}
	return (rng) => `${field} ${rng.int(1, 99)}`;
}

const DERIVED: Record<string, (core: SearchableProperty, lotSize: () => number) => unknown> = {
	LotSizeAcres: (_core, lotSize) => Math.round((lotSize() / 43_560) * 100) / 100,
	isPreforeclosure: (core) => (core.ForeclosureStage === 'Preforeclosure' ? 1 : 0),
	isAuction: (core) => (core.ForeclosureStage === 'Auction' ? 1 : 0),
	isBankOwned: (core) => (core.ForeclosureStage === 'Bank Owned' ? 1 : 0),
	isExpiredListing: (core) => (core.ListingStatus === 'Expired' ? 1 : 0),
	_links: (core) => ({
		self: `/v1/properties/${core.PropID}`,
		persons: `/v1/properties/${core.PropID}/persons`,
	}),
	Transactions: () => [],
	EvictionFilings: () => [],
};

const MAKERS = new Map(
	PROPERTY_FIELDS.filter((field) => field !== 'Persons').map((field) => [field, makerFor(field)]),
);

/** One field of a property: each field is derived from the PropID and its own name, independently of the others. */
function fieldValue(core: SearchableProperty, field: string): unknown {
	if (Object.hasOwn(core, field)) return (core as unknown as Record<string, unknown>)[field];
	const derived = own(DERIVED, field);
	if (derived) return derived(core, () => Number(fieldValue(core, 'LotSize')));
	const maker = MAKERS.get(field);
	return maker ? maker(fieldSeed(core.PropID, field), core) : undefined;
}

/**
 * A property record with the given fields (default: every field of every fieldset of the property document,
 * except Persons, which the routes add).
 */
export function getProperty(
	ctx: SandboxContext,
	propId: string,
	fields: readonly string[] = [...MAKERS.keys()],
): PropertyRecord | undefined {
	const core = getSearchable(ctx, propId);
	if (!core) return undefined;
	const record: PropertyRecord = { PropID: propId };
	for (const field of fields) {
		if (field === 'Persons' || field === 'PropID') continue;
		record[field] = fieldValue(core, field);
	}
	return record;
}

/** Changes a property (a simulated event); returns the searchable fields before and after. */
export function applyPropertyChange(
	ctx: SandboxContext,
	propId: string,
	patch: Partial<SearchableProperty>,
): { before: SearchableProperty; after: SearchableProperty } {
	const before = getSearchable(ctx, propId);
	if (!before) throw new Error(`no property ${propId}`);
	const patches = state(ctx).patches;
	patches[propId] = { ...patches[propId], ...patch };
	ctx.store.save();
	return { before, after: getSearchable(ctx, propId)! };
}

/** Adds a property (a simulated new record, e.g. a new foreclosure), derived from a seeded one. */
export function addProperty(
	ctx: SandboxContext,
	overrides: Partial<SearchableProperty>,
): SearchableProperty {
	const added = state(ctx).added;
	const propId = `P${String(PROPERTY_COUNT + added.length + 1).padStart(6, '0')}`;
	const template = generateSearchable(propId, PROPERTY_COUNT + added.length + 1);
	const property = { ...template, ...overrides, PropID: propId };
	added.push(property);
	ctx.store.save();
	return property;
}

/** Resets the index so that tests which reset the store see the seeded data again. */
export function propertyIndexSize(ctx: SandboxContext): number {
	return PROPERTY_COUNT + state(ctx).added.length;
}
