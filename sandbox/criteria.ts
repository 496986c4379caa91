import { ApiError } from './errors';
import type { SearchableProperty } from './data/properties';

/**
 * The sandbox's criteria engine (docs/api.md "Criteria"): values inside one criterion are ORed,
 * criteria ANDed. Kinds: multiple value, begins-with (APN), boolean, multiple range with null open
 * ends, range including unknowns (a null minimum also matches unknown values), relative dates,
 * nested PropertyType with PType/AdvancedPropertyType, InList and PropID.
 */
export interface Criterion {
	name: string;
	value: unknown[];
}

type Kind =
	| 'values'
	| 'text'
	| 'beginsWith'
	| 'boolean'
	| 'range'
	| 'rangeWithUnknown'
	| 'date'
	| 'propertyType'
	| 'inList'
	| 'propId';

const KINDS = new Map<string, Kind>(
	Object.entries({
		State: 'values',
		ZipFive: 'values',
		City: 'text',
		County: 'text',
		Address: 'text',
		APN: 'beginsWith',
		PType: 'values',
		AdvancedPropertyType: 'text',
		PropertyType: 'propertyType',
		Beds: 'range',
		Baths: 'range',
		SqFt: 'rangeWithUnknown',
		YearBuilt: 'range',
		AVM: 'range',
		AvailableEquity: 'range',
		EquityPercent: 'range',
		ListingPrice: 'range',
		Pool: 'boolean',
		inForeclosure: 'boolean',
		isListedForSale: 'boolean',
		isSameMailingOrExempt: 'boolean',
		isFreeAndClear: 'boolean',
		isSiteVacant: 'boolean',
		inTaxDelinquency: 'boolean',
		ForeclosureStage: 'text',
		ListingStatus: 'text',
		LastTransferRecDate: 'date',
		InList: 'inList',
		PropID: 'propId',
	} satisfies Record<string, Kind>),
);

/**
 * How deep criteria may nest: a compound criterion (PropertyType) holds criteria, which may be
 * compound again; deeper than this answers 400 rather than recursing without end.
 */
const MAX_CRITERIA_DEPTH = 10;

const bad = (message: string) => new ApiError(400, 'Invalid Criteria', message);

/** Checks the shape of a Criteria array; an unknown name answers 400 `Unexpected Criterion`. */
export function parseCriteria(raw: unknown, field = 'Criteria', depth = 1): Criterion[] {
	if (!Array.isArray(raw)) throw bad(`${field} must be an array of {name, value}`);
	if (depth > MAX_CRITERIA_DEPTH)
		throw bad(`${field}: criteria are nested more than ${MAX_CRITERIA_DEPTH} levels deep`);
	return raw.map((entry, index) => {
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
			throw bad(`${field}[${index}] must be an object with name and value`);
		const { name, value, menuLabels, chipLabel, ...rest } = entry as Record<string, unknown>;
		void menuLabels;
		void chipLabel;
		const extra = Object.keys(rest)[0];
		if (extra)
			throw new ApiError(
				400,
				'Unexpected payload field',
				`${field}[${index}].${extra} is not a criterion field`,
			);
		if (typeof name !== 'string') throw bad(`${field}[${index}].name must be a string`);
		const kind = KINDS.get(name);
		if (!kind) throw new ApiError(400, 'Unexpected Criterion', `Unknown criterion name: ${name}`);
		if (!Array.isArray(value) || value.length === 0)
			throw bad(`${field}[${index}].value (${name}) must be a non-empty array`);
		for (const element of value) {
			if (kind === 'propertyType') {
				// The documents' compound holds PType and AdvancedPropertyType criteria, nothing else.
				const inner =
					typeof element === 'object' && element !== null && !Array.isArray(element)
						? (element as Record<string, unknown>).name
						: undefined;
				if (typeof inner === 'string' && !KINDS.has(inner))
					throw new ApiError(400, 'Unexpected Criterion', `Unknown criterion name: ${inner}`);
				if (inner !== 'PType' && inner !== 'AdvancedPropertyType') {
					throw bad(
						`${field}[${index}].value (${name}) holds nested PType and AdvancedPropertyType criteria only, not ${typeof inner === 'string' ? `"${inner}"` : 'a value that is no criterion'}`,
					);
				}
				parseCriteria([element], `${field}[${index}].value`, depth + 1);
			} else if (kind === 'range' || kind === 'rangeWithUnknown') {
				const ok =
					Array.isArray(element) &&
					element.length === 2 &&
					element.every((end) => end === null || typeof end === 'number');
				if (!ok)
					throw bad(
						`${field}[${index}].value (${name}) takes ranges [min, max] with null for an open end`,
					);
			} else if (kind === 'boolean') {
				if (element !== 0 && element !== 1)
					throw bad(`${field}[${index}].value (${name}) takes [1] (must have) or [0] (must not)`);
			} else if (typeof element !== 'string' && typeof element !== 'number') {
				throw bad(`${field}[${index}].value (${name}) takes strings or numbers`);
			} else if (kind === 'date' && !parseRelativeDate(String(element))) {
				throw bad(
					`${field}[${index}].value (${name}): "${String(element)}" is not a date, a range "from: M/D/YYYY to: M/D/YYYY" (either end may be empty) or a preset such as "Last 30 Days"`,
				);
			}
		}
		return { name, value };
	});
}

const DAY = 86_400_000;

function parseUsDate(text: string): number | undefined {
	const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
	if (!match) return undefined;
	const time = Date.UTC(Number(match[3]), Number(match[1]) - 1, Number(match[2]));
	return Number.isFinite(time) ? time : undefined;
}

function startOf(
	unit: 'week' | 'month' | 'quarter' | 'year',
	time: number,
	offset: number,
): [number, number] {
	const date = new Date(time);
	const y = date.getUTCFullYear();
	const m = date.getUTCMonth();
	if (unit === 'week') {
		const start = Date.UTC(y, m, date.getUTCDate() - date.getUTCDay()) + offset * 7 * DAY;
		return [start, start + 7 * DAY - 1];
	}
	const months = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
	const first = unit === 'month' ? m : unit === 'quarter' ? m - (m % 3) : 0;
	const start = Date.UTC(y, first + offset * months, 1);
	return [start, Date.UTC(y, first + (offset + 1) * months, 1) - 1];
}

/** A relative date of the API as a [from, to] span of UTC milliseconds, or undefined when malformed. */
export function parseRelativeDate(text: string, now = Date.now()): [number, number] | undefined {
	const today = Math.floor(now / DAY) * DAY;
	// Either end may be empty (open): `from: to: 1/1/1999` is a before-date (docs/api.md, "Criteria").
	const range = /^from: ?(\S*) to: ?(\S*)$/.exec(text);
	if (range) {
		if (range[1] === '' && range[2] === '') return undefined;
		const from = range[1] === '' ? -Infinity : parseUsDate(range[1]);
		const to = range[2] === '' ? Infinity : parseUsDate(range[2]);
		return from !== undefined && to !== undefined ? [from, to + DAY - 1] : undefined;
	}
	const single = parseUsDate(text);
	if (single !== undefined) return [single, single + DAY - 1];
	if (text === 'Today') return [today, today + DAY - 1];
	if (text === 'Yesterday') return [today - DAY, today - 1];
	const days = /^(Last|Next) (7|30|90|365) Days$/.exec(text);
	if (days) {
		const n = Number(days[2]);
		return days[1] === 'Last'
			? [today - n * DAY, today + DAY - 1]
			: [today, today + (n + 1) * DAY - 1];
	}
	const period = /^(This|Last|Next) (Week|Month|Quarter|Year)$/.exec(text);
	if (period) {
		const offset = period[1] === 'This' ? 0 : period[1] === 'Last' ? -1 : 1;
		return startOf(period[2].toLowerCase() as 'week', now, offset);
	}
	return undefined;
}

/** Whether a relative date also takes unknown dates: a range whose `from:` is empty. */
export function takesUnknownDates(text: string): boolean {
	return /^from: ?to:/.test(text);
}

/** Resolves `InList` to the list's PropIDs (the lists module provides it). */
export type ListMembers = (listId: number) => ReadonlySet<string> | undefined;

function inRange(actual: number | null, range: unknown, unknownMatches: boolean): boolean {
	const [min, max] = range as [number | null, number | null];
	if (actual === null || actual === undefined) return unknownMatches && min === null;
	return (min === null || actual >= min) && (max === null || actual <= max);
}

type Predicate = (property: SearchableProperty) => boolean;

const lower = (value: unknown) => String(value).toLowerCase();

/** One criterion as a predicate, its values prepared once per request rather than per property. */
function compileOne(criterion: Criterion, members: ListMembers, now: number): Predicate {
	const name = criterion.name;
	const field = (property: SearchableProperty) =>
		(property as unknown as Record<string, unknown>)[name];
	const kind = KINDS.get(name);
	switch (kind) {
		case 'values':
		case 'text': {
			const wanted = new Set(criterion.value.map(lower));
			return (property) => {
				const actual = field(property);
				return actual !== null && actual !== undefined && wanted.has(lower(actual));
			};
		}
		case 'beginsWith': {
			const prefixes = criterion.value.map((value) => String(value).replace(/-/g, ''));
			return (property) => {
				const actual = String(field(property)).replace(/-/g, '');
				return prefixes.some((prefix) => actual.startsWith(prefix));
			};
		}
		case 'boolean':
			return (property) => criterion.value.includes(Number(field(property) ?? 0));
		case 'range':
		case 'rangeWithUnknown': {
			const unknownMatches = kind === 'rangeWithUnknown';
			return (property) =>
				criterion.value.some((range) =>
					inRange(field(property) as number | null, range, unknownMatches),
				);
		}
		case 'date': {
			const spans = criterion.value
				.map((value) => parseRelativeDate(String(value), now))
				.filter((span): span is [number, number] => span !== undefined);
			const unknownMatches = criterion.value.some((value) => takesUnknownDates(String(value)));
			return (property) => {
				const actual = field(property);
				const time =
					actual === null || actual === undefined ? undefined : parseUsDate(String(actual));
				if (time === undefined) return unknownMatches;
				return spans.some(([from, to]) => time >= from && time <= to);
			};
		}
		case 'propertyType': {
			const nested = criterion.value.map((inner) => compileOne(inner as Criterion, members, now));
			return (property) => nested.some((test) => test(property));
		}
		case 'inList': {
			const sets = criterion.value.map((listId) => members(Number(listId)));
			return (property) => sets.some((set) => set?.has(property.PropID) ?? false);
		}
		case 'propId': {
			const ids = new Set(criterion.value.map(String));
			return (property) => ids.has(property.PropID);
		}
		case undefined:
			throw new ApiError(400, 'Unexpected Criterion', `Unknown criterion name: ${name}`);
	}
}

/** The criteria as one predicate (all criteria must hold). */
export function compileCriteria(
	criteria: Criterion[],
	members: ListMembers,
	now = Date.now(),
): Predicate {
	const tests = criteria.map((criterion) => compileOne(criterion, members, now));
	return (property) => tests.every((test) => test(property));
}

/** The PropIDs a `PropID` criterion names, each once, when the criteria are only that (a fast path). */
export function onlyPropIds(criteria: Criterion[]): string[] | undefined {
	if (criteria.length !== 1 || criteria[0].name !== 'PropID') return undefined;
	return [...new Set(criteria[0].value.map(String))];
}
