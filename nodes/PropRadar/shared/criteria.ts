import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { keyProblem, parseNumberedId, PROP_ID_RULE, shownValue } from './ids';

/**
 * The criteria builder (docs/design.md): a form for the common criteria that knows each
 * criterion's value kind, a raw JSON mode for everything else, and the validation both go
 * through before anything is sent.
 *
 * A criterion is `{ name, value: [...] }`: values inside one criterion are ORed, criteria ANDed.
 */
export type CriterionScalar = string | number;
export type CriterionRange = [number | null, number | null];
export interface Criterion {
	name: string;
	value: Array<CriterionScalar | CriterionRange | Criterion>;
	menuLabels?: unknown[] | null;
	chipLabel?: string | null;
}

type ValueKind = 'values' | 'beginsWith' | 'boolean' | 'range' | 'date' | 'propertyType' | 'listIds' | 'leadFilter';

/** What a range criterion counts, which decides the examples its Minimum and Maximum show. */
type RangeUnit = 'count' | 'area' | 'year' | 'money' | 'percent';

interface BuilderCriterion {
	kind: ValueKind;
	label: string;
	/** Range criteria: what they count. */
	unit?: RangeUnit;
	/** Criteria given as values: an example of what to type. */
	example?: string;
	/** Lead filters: the whole criterion, chosen in one step (no value fields). */
	criterion?: Criterion;
	/** Shown under the choice in the criterion picker. */
	description?: string;
}

/**
 * The builder's choices, by the name saved in the workflow, and the kind of value each takes
 * (docs/api.md "Criteria"). Lead filters are common investor searches made of one criterion.
 * Vacant and Tax-Delinquent send the property fields' names (isSiteVacant, inTaxDelinquency),
 * which PropRadar's documents do not list as criteria: every known boolean criterion (Pool,
 * isFreeAndClear, ...) is named exactly as its property field, and the free Matching Properties
 * line shows at once whether the service takes them.
 */
export const BUILDER_CRITERIA: Record<string, BuilderCriterion> = {
	State: { kind: 'values', label: 'State', example: 'OR, WA' },
	ZipFive: { kind: 'values', label: 'ZIP Code', example: '97202, 97212' },
	City: { kind: 'values', label: 'City', example: 'Portland, Salem' },
	County: { kind: 'values', label: 'County', example: 'Multnomah' },
	Address: { kind: 'values', label: 'Address', example: '123 Main St' },
	APN: { kind: 'beginsWith', label: 'APN (Begins With)', example: '1S1E' },
	PropertyType: { kind: 'propertyType', label: 'Property Type' },
	Beds: { kind: 'range', label: 'Beds', unit: 'count' },
	Baths: { kind: 'range', label: 'Baths', unit: 'count' },
	SqFt: { kind: 'range', label: 'Square Feet', unit: 'area' },
	YearBuilt: { kind: 'range', label: 'Year Built', unit: 'year' },
	Pool: { kind: 'boolean', label: 'Pool' },
	AVM: { kind: 'range', label: 'Estimated Value (AVM)', unit: 'money' },
	AvailableEquity: { kind: 'range', label: 'Available Equity', unit: 'money' },
	EquityPercent: { kind: 'range', label: 'Equity Percent', unit: 'percent' },
	inForeclosure: { kind: 'boolean', label: 'In Foreclosure' },
	ForeclosureStage: { kind: 'values', label: 'Foreclosure Stage', example: 'Preforeclosure, Auction' },
	isListedForSale: { kind: 'boolean', label: 'Listed for Sale', description: 'Lead filter: on the market now' },
	isFreeAndClear: { kind: 'boolean', label: 'Free and Clear', description: 'Lead filter: no open loan on the property' },
	absenteeOwner: {
		kind: 'leadFilter',
		label: 'Absentee Owner',
		description: 'Lead filter: the owner\'s mailing address is not the property and no owner exemption (isSameMailingOrExempt off)',
		criterion: { name: 'isSameMailingOrExempt', value: [0] },
	},
	highEquity: {
		kind: 'leadFilter',
		label: 'High Equity (50% or More)',
		description: 'Lead filter: equity of at least half the estimated value (Equity Percent 50 and up)',
		criterion: { name: 'EquityPercent', value: [[50, null]] },
	},
	preForeclosure: {
		kind: 'leadFilter',
		label: 'Pre-Foreclosure',
		description: 'Lead filter: a default or lis pendens recorded, before any auction (Foreclosure Stage Preforeclosure)',
		criterion: { name: 'ForeclosureStage', value: ['Preforeclosure'] },
	},
	vacant: {
		kind: 'leadFilter',
		label: 'Vacant',
		description: 'Lead filter: the site vacancy flag, sent as isSiteVacant 1, the property field\'s name, not listed in PropRadar\'s documents as a criterion; Matching Properties (free) shows at once whether the service takes it',
		criterion: { name: 'isSiteVacant', value: [1] },
	},
	taxDelinquent: {
		kind: 'leadFilter',
		label: 'Tax-Delinquent',
		description: 'Lead filter: property taxes past due, sent as inTaxDelinquency 1, the property field\'s name, not listed in PropRadar\'s documents as a criterion; Matching Properties (free) shows at once whether the service takes it',
		criterion: { name: 'inTaxDelinquency', value: [1] },
	},
	LastTransferRecDate: { kind: 'date', label: 'Last Transfer Date' },
	InList: { kind: 'listIds', label: 'In List', example: '12, 15' },
	PropID: { kind: 'values', label: 'Property ID', example: 'P000123, P000456' },
};

/** Examples of each range unit for Minimum and Maximum, and what it is in words. */
const RANGE_UNITS: Record<RangeUnit, { min: string; max: string; what: string }> = {
	count: { min: '2', max: '4', what: 'a count (beds, baths)' },
	area: { min: '1200', max: '2500', what: 'square feet' },
	year: { min: '1960', max: '2005', what: 'a year' },
	money: { min: '100000', max: '500000', what: 'US dollars, digits only' },
	percent: { min: '50', max: '100', what: 'a percentage, 0 to 100' },
};

/** Property type codes of the nested `PropertyType` criterion. */
export const PTYPE_CODES: Record<string, string> = {
	SFR: 'Single Family',
	CND: 'Condominium',
	MFR: 'Multi-Family',
	LND: 'Land',
	MOB: 'Mobile Home',
	COM: 'Commercial',
	IND: 'Industrial',
	AGR: 'Agricultural',
};

export const DATE_PRESETS = [
	'Today', 'Yesterday',
	'This Week', 'Last Week', 'Next Week', 'This Month', 'Last Month', 'Next Month',
	'This Quarter', 'Last Quarter', 'Next Quarter', 'This Year', 'Last Year', 'Next Year',
	'Last 7 Days', 'Last 30 Days', 'Last 90 Days', 'Last 365 Days',
	'Next 7 Days', 'Next 30 Days', 'Next 90 Days', 'Next 365 Days',
];

const DATE = String.raw`(0?[1-9]|1[0-2])/(0?[1-9]|[12]\d|3[01])/\d{4}`;
// An end of a range may be left empty (open); an empty `from:` also takes unknown dates, so a
// before-date is `from: to: M/D/YYYY` (docs/api.md, "Criteria").
const DATE_PATTERN = new RegExp(`^(${DATE}|from: ${DATE} to: ${DATE}|from: to: ${DATE}|from: ${DATE} to:)$`);

/**
 * A relative-date value the API accepts: a preset, a date `M/D/YYYY`, or `from: M/D/YYYY to:
 * M/D/YYYY` with either end left empty.
 */
export function isRelativeDate(value: string): boolean {
	return DATE_PRESETS.includes(value) || DATE_PATTERN.test(value);
}

export class CriteriaError extends Error {}

function isRange(value: unknown): value is CriterionRange {
	return (
		Array.isArray(value) &&
		value.length === 2 &&
		value.every((end) => end === null || (typeof end === 'number' && Number.isFinite(end))) &&
		!(value[0] === null && value[1] === null) &&
		(value[0] === null || value[1] === null || (value[0] as number) <= (value[1] as number))
	);
}

/** The compound criterion and the criteria it holds (the lists document, "Criterion"): the only nesting there is. */
const COMPOUND = 'PropertyType';
const COMPOUND_PARTS = new Set(['PType', 'AdvancedPropertyType']);

/**
 * Checks the shape of raw criteria (JSON mode, or anything a workflow passes in) and returns them
 * typed: an array of `{name, value}` whose values are scalars, `[min, max]` ranges with null open
 * ends, or, in the compound PropertyType only, nested PType and AdvancedPropertyType criteria.
 * Other names are checked for shape only: the service knows more criteria than the builder
 * offers, and answers "Unexpected Criterion" for a name it does not know.
 */
export function validateCriteria(raw: unknown, path = 'Criteria', parent?: string): Criterion[] {
	let value = raw;
	if (typeof value === 'string') {
		let parsed: unknown;
		let valid = true;
		try {
			parsed = JSON.parse(value);
		} catch {
			valid = false;
		}
		if (!valid) throw new CriteriaError(`${path}: not valid JSON. Expected an array like [{"name": "State", "value": ["OR"]}]`);
		value = parsed;
	}
	if (!Array.isArray(value)) {
		throw new CriteriaError(`${path}: must be an array of criteria like [{"name": "State", "value": ["OR"]}]`);
	}
	return value.map((entry, index) => {
		const where = `${path}[${index}]`;
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
			throw new CriteriaError(`${where}: must be an object with "name" and "value"`);
		}
		const { name, value: values, menuLabels, chipLabel, ...rest } = entry as Record<string, unknown>;
		const extra = Object.keys(rest);
		if (extra.length > 0) {
			throw new CriteriaError(`${where}: unexpected key "${extra[0]}"; a criterion has name, value, menuLabels and chipLabel`);
		}
		if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
			throw new CriteriaError(`${where}.name: must be a criterion name such as "State" or "ZipFive"`);
		}
		if (parent === COMPOUND && !COMPOUND_PARTS.has(name)) {
			throw new CriteriaError(`${where}: ${COMPOUND} holds PType and AdvancedPropertyType criteria, not "${name}"`);
		}
		if (!Array.isArray(values) || values.length === 0) {
			throw new CriteriaError(`${where}.value (${name}): must be a non-empty array`);
		}
		const checked = values.map((element, valueIndex) => {
			const at = `${where}.value[${valueIndex}] (${name})`;
			const nested = typeof element === 'object' && element !== null && !Array.isArray(element);
			if (name === COMPOUND && !nested) {
				throw new CriteriaError(`${at}: ${COMPOUND} holds nested criteria such as {"name": "PType", "value": ["SFR"]}`);
			}
			if (nested) {
				if (name !== COMPOUND) throw new CriteriaError(`${at}: only ${COMPOUND} takes nested criteria`);
				return validateCriteria([element], at, name)[0];
			}
			if (typeof element === 'string') return element;
			if (typeof element === 'number' && Number.isFinite(element)) return element;
			if (Array.isArray(element)) {
				if (!isRange(element)) {
					throw new CriteriaError(`${at}: a range is [min, max] of numbers with null for an open end, min not above max`);
				}
				return element;
			}
			throw new CriteriaError(`${at}: must be a string, a number, a [min, max] range or a nested criterion`);
		});
		// The two criteria whose values are identifiers: checked as the node checks every PropID and list ID.
		checked.forEach((element, valueIndex) => {
			const at = `${where}.value[${valueIndex}] (${name})`;
			if (name === 'PropID') {
				const problem = typeof element === 'string' ? keyProblem(element) : 'is not text';
				if (problem) throw new CriteriaError(`${at}: "${shownValue(element)}" ${problem}; ${PROP_ID_RULE}`);
			} else if (name === 'InList') {
				const parsed = parseNumberedId(element, 'a list ID');
				if ('problem' in parsed) throw new CriteriaError(`${at}: "${shownValue(element)}" ${parsed.problem}`);
			}
		});
		const criterion: Criterion = { name, value: checked };
		if (menuLabels !== undefined) criterion.menuLabels = menuLabels as unknown[] | null;
		if (chipLabel !== undefined) criterion.chipLabel = chipLabel as string | null;
		return criterion;
	});
}

/**
 * One row of the builder as n8n stores it. An expression keeps its result's type (a number, an
 * array, ...), so every field may hold any value and is checked for what it holds.
 */
export interface BuilderRow {
	name?: unknown;
	values?: unknown;
	has?: unknown;
	min?: unknown;
	max?: unknown;
	date?: unknown;
	propertyTypes?: unknown;
	advancedPropertyTypes?: unknown;
}

/**
 * The entries of a list field: comma-separated text, a number, or an array of texts and numbers
 * (what an expression such as `{{ $json.ids }}` gives). Undefined when the value is none of these.
 */
function listEntries(value: unknown, numberText: (number: number) => string = String): string[] | undefined {
	if (value === undefined || value === null) return [];
	const parts = Array.isArray(value) ? value : [value];
	const texts: string[] = [];
	for (const part of parts) {
		if (typeof part === 'number' && Number.isFinite(part)) texts.push(numberText(part));
		else if (typeof part === 'string') texts.push(...part.split(','));
		else return undefined;
	}
	return texts.map((text) => text.trim()).filter((text) => text.length > 0);
}

function rangeEnd(value: unknown, label: string, end: 'min' | 'max'): number | null {
	if (value === undefined || value === null || value === '') return null;
	const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	if (!Number.isFinite(number)) throw new CriteriaError(`${label} ${end}: must be a number or empty for an open end`);
	return number;
}

/** Must Have as the builder holds it: a boolean, or what an expression gives for one. */
function mustHave(value: unknown, label: string): boolean {
	if (value === undefined || value === null || value === true || value === 1 || value === 'true' || value === '1') return true;
	if (value === false || value === 0 || value === 'false' || value === '0') return false;
	throw new CriteriaError(`${label}: Must Have is on or off (true or false), got ${JSON.stringify(value)}`);
}

/** Turns the builder's rows into criteria, checking each row against its criterion's value kind. */
export function buildCriteria(rows: BuilderRow[]): Criterion[] {
	if (!Array.isArray(rows)) throw new CriteriaError('Criteria: the builder rows must be a list');
	return rows.map((given, index) => {
		const row = (typeof given === 'object' && given !== null ? given : {}) as BuilderRow;
		const name = typeof row.name === 'string' ? row.name : row.name === undefined || row.name === null ? '' : shownValue(row.name);
		if (!Object.hasOwn(BUILDER_CRITERIA, name)) {
			throw new CriteriaError(`Criteria row ${index + 1}: "${name}" is not a builder criterion; use JSON mode for other criteria`);
		}
		const known = BUILDER_CRITERIA[name];
		const label = `Criteria row ${index + 1} (${known.label})`;
		const entries = (field: unknown, what: string, numberText?: (number: number) => string) => {
			const list = listEntries(field, numberText);
			if (!list) throw new CriteriaError(`${label}: ${what} must be text, a number or a list of them`);
			return list;
		};
		switch (known.kind) {
			case 'values':
			case 'beginsWith': {
				// A ZIP code that came as a number lost its leading zeros: 2134 is 02134.
				const values = entries(row.values, 'values', name === 'ZipFive' ? (zip) => String(zip).padStart(5, '0') : undefined);
				if (values.length === 0) throw new CriteriaError(`${label}: enter at least one value, comma-separated`);
				if (name === 'ZipFive') {
					if (values.some((value) => !/^\d{5}$/.test(value))) {
						throw new CriteriaError(`${label}: ZIP codes are five digits, comma-separated`);
					}
					return { name, value: values.map(Number) };
				}
				if (name === 'State') {
					if (values.some((value) => !/^[A-Za-z]{2}$/.test(value))) {
						throw new CriteriaError(`${label}: states are two-letter codes such as OR, comma-separated`);
					}
					return { name, value: values.map((value) => value.toUpperCase()) };
				}
				if (name === 'PropID') {
					for (const value of values) {
						const problem = keyProblem(value);
						if (problem) throw new CriteriaError(`${label}: "${value}" ${problem}; ${PROP_ID_RULE}`);
					}
				}
				return { name, value: values };
			}
			case 'listIds': {
				// A number past 2^53 from an expression has already lost digits: refused, not sent rounded.
				const rounded = (Array.isArray(row.values) ? row.values : [row.values]).find((value) => typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value));
				if (rounded !== undefined) {
					const parsed = parseNumberedId(rounded, 'a list ID');
					throw new CriteriaError(`${label}: "${shownValue(rounded)}" ${'problem' in parsed ? parsed.problem : ''}`);
				}
				const ids = entries(row.values, 'values');
				if (ids.length === 0) throw new CriteriaError(`${label}: enter list IDs (whole numbers), comma-separated`);
				return {
					name,
					value: ids.map((id) => {
						const parsed = parseNumberedId(id, 'a list ID');
						if ('problem' in parsed) throw new CriteriaError(`${label}: "${id}" ${parsed.problem}`);
						return parsed.id;
					}),
				};
			}
			case 'boolean':
				return { name, value: [mustHave(row.has, label) ? 1 : 0] };
			case 'range': {
				const min = rangeEnd(row.min, label, 'min');
				const max = rangeEnd(row.max, label, 'max');
				const range: CriterionRange = [min, max];
				if (!isRange(range)) throw new CriteriaError(`${label}: give a minimum, a maximum or both, the minimum not above the maximum`);
				return { name, value: [range] };
			}
			case 'date': {
				const date = typeof row.date === 'string' ? row.date.trim() : '';
				if (!isRelativeDate(date)) {
					throw new CriteriaError(`${label}: use a preset such as "Last 30 Days", a date M/D/YYYY, or "from: M/D/YYYY to: M/D/YYYY"`);
				}
				return { name, value: [date] };
			}
			case 'leadFilter':
				return JSON.parse(JSON.stringify(known.criterion)) as Criterion;
			case 'propertyType': {
				const codes = entries(row.propertyTypes, 'property types');
				const unknownCode = codes.find((code) => !Object.hasOwn(PTYPE_CODES, code));
				if (unknownCode !== undefined) {
					throw new CriteriaError(`${label}: "${unknownCode}" is not a property type code; codes: ${Object.keys(PTYPE_CODES).join(', ')}`);
				}
				const advanced = entries(row.advancedPropertyTypes, 'advanced property types');
				if (codes.length === 0 && advanced.length === 0) {
					throw new CriteriaError(`${label}: choose at least one property type or give advanced property types`);
				}
				const parts: Criterion[] = [];
				if (codes.length > 0) parts.push({ name: 'PType', value: codes });
				if (advanced.length > 0) parts.push({ name: 'AdvancedPropertyType', value: advanced });
				return { name, value: parts };
			}
		}
	});
}

/** The names of the builder's criteria that match `test`. */
function criteriaWhere(test: (criterion: BuilderCriterion) => boolean): string[] {
	return Object.keys(BUILDER_CRITERIA).filter((name) => test(BUILDER_CRITERIA[name]));
}

/**
 * The value fields of a criterion row. n8n shows a row's fields in their order here, which its
 * lint requires to be alphabetical by the name shown: so the names carry the order the user reads,
 * the criterion first ("Criterion"), then its values, Minimum before Maximum ("From", "To").
 * Fields with one saved name (min, max, values) come once per kind of value, each shown only for
 * its criteria, so that each has an example of the right kind.
 */
function criterionRowFields(): INodeProperties[] {
	const ranges = (Object.keys(RANGE_UNITS) as RangeUnit[]).flatMap((unit): INodeProperties[] => {
		const { min, max, what } = RANGE_UNITS[unit];
		const show = { name: criteriaWhere((criterion) => criterion.unit === unit) };
		return [
			{
				displayName: 'From (Minimum)',
				name: 'min',
				type: 'string',
				default: '',
				placeholder: min,
				description: `The smallest value that matches, in ${what}; empty for no minimum${unit === 'area' ? ' (which also matches properties whose size is unknown)' : ''}`,
				displayOptions: { show },
			},
			{
				displayName: 'To (Maximum)',
				name: 'max',
				type: 'string',
				default: '',
				placeholder: max,
				description: `The largest value that matches, in ${what}; empty for no maximum`,
				displayOptions: { show },
			},
		];
	});
	const valueFields = criteriaWhere((criterion) => ['values', 'beginsWith', 'listIds'].includes(criterion.kind)).map(
		(name): INodeProperties => ({
			displayName: 'Values',
			name: 'values',
			type: 'string',
			default: '',
			placeholder: BUILDER_CRITERIA[name].example,
			description: {
				beginsWith: 'Comma-separated: properties whose APN begins with one of them match',
				listIds: 'Comma-separated list IDs: properties in any of these lists match',
				values: 'Comma-separated: properties with any of these match',
			}[BUILDER_CRITERIA[name].kind as 'values' | 'beginsWith' | 'listIds'],
			displayOptions: { show: { name: [name] } },
		}),
	);
	const fields: INodeProperties[] = [
		{
			displayName: 'Criterion',
			name: 'name',
			type: 'options',
			options: Object.entries(BUILDER_CRITERIA)
				.map(([value, { label, description }]) => ({ name: label, value, ...(description ? { description } : {}) }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: 'State',
			description: 'What to match. Lead filters (Absentee Owner, Free and Clear, High Equity, Listed for Sale, Pre-Foreclosure, Tax-Delinquent, Vacant) are complete in one choice.',
		},
		{
			displayName: 'Date',
			name: 'date',
			type: 'string',
			default: 'Last 30 Days',
			placeholder: 'Last 30 Days',
			description: `A preset (${DATE_PRESETS.slice(0, 4).join(', ')}, Last/Next 7|30|90|365 Days ...), a date M/D/YYYY, or "from: M/D/YYYY to: M/D/YYYY"`,
			displayOptions: { show: { name: criteriaWhere((criterion) => criterion.kind === 'date') } },
		},
		...ranges,
		{
			displayName: 'Must Have',
			name: 'has',
			type: 'boolean',
			default: true,
			description: 'Whether matching properties must have it (on) or must not have it (off)',
			displayOptions: { show: { name: criteriaWhere((criterion) => criterion.kind === 'boolean') } },
		},
		{
			displayName: 'Property Types',
			name: 'propertyTypes',
			type: 'multiOptions',
			options: Object.entries(PTYPE_CODES)
				.map(([value, label]) => ({ name: `${label} (${value})`, value }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: [],
			displayOptions: { show: { name: criteriaWhere((criterion) => criterion.kind === 'propertyType') } },
		},
		{
			displayName: 'Property Types (Advanced)',
			name: 'advancedPropertyTypes',
			type: 'string',
			default: '',
			placeholder: 'Duplex, Single Family Residence',
			description: 'Comma-separated AdvancedPropertyType values, matched with the property types above (either one matches)',
			displayOptions: { show: { name: criteriaWhere((criterion) => criterion.kind === 'propertyType') } },
		},
		...valueFields,
	];
	return fields.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** How many builder rows Matching Properties follows field by field: more than the builder's criteria, each once. */
const MATCH_COUNT_ROWS = 30;

/**
 * The line under the builder that tells how many properties match, fed by a free count (see
 * `getCriteriaMatchCount`). Its typeOptions are named, not written in place: n8n's lint rule for
 * dynamic options expects an ID picker ("... Name or ID"), and this is a line to read, not a choice.
 *
 * n8n's editor loads the line again only when the text it makes of `loadOptionsDependsOn` changes
 * (2.41: ParameterInput.vue, `dependentParametersValues`, watched to `loadRemoteParameterOptions`):
 * each entry is a path read with lodash `get` from the node's parameters, and the values are joined
 * with "|". An object is joined as "[object Object]" whatever it holds, so `criteria` (and
 * `criteria.criterion`, an array of row objects) never shows an edit inside a row. The line depends
 * on the number of rows (`criteria.criterion.length`) and on every field of the first
 * MATCH_COUNT_ROWS rows by its own path (`criteria.criterion[0].values`, ...), each a text, number,
 * switch or list of codes; further rows count when a row is added or removed.
 */
const MATCH_COUNT_ROW_FIELDS = [...new Set(criterionRowFields().map((field) => field.name))];
const MATCH_COUNT_OPTIONS = {
	loadOptionsMethod: 'getCriteriaMatchCount',
	loadOptionsDependsOn: [
		'criteriaMode',
		'criteria',
		'criteriaJson',
		'criteria.criterion.length',
		...Array.from({ length: MATCH_COUNT_ROWS }, (_, row) => MATCH_COUNT_ROW_FIELDS.map((field) => `criteria.criterion[${row}].${field}`)).flat(),
	],
};

/** How the criteria are given: the builder's rows or a JSON array. */
export const CRITERIA_MODE: INodeProperties = {
	displayName: 'Criteria Mode',
	name: 'criteriaMode',
	type: 'options',
	options: [
		{ name: 'Builder', value: 'builder', description: 'Pick common criteria and lead filters in a form' },
		{ name: 'JSON', value: 'json', description: 'Write the Criteria array, any criterion name' },
	],
	default: 'builder',
};

/** The criteria UI: a mode, the builder rows, the JSON field and the count of matches, all under `displayOptions`. */
export function criteriaProperties(show: IDisplayOptions['show'], required: boolean): INodeProperties[] {
	return [
		{ ...CRITERIA_MODE, displayOptions: { show } },
		{
			displayName: 'Criteria',
			name: 'criteria',
			type: 'fixedCollection',
			placeholder: 'Add Criterion',
			typeOptions: { multipleValues: true },
			displayOptions: { show: { ...show, criteriaMode: ['builder'] } },
			default: {},
			description: `${required ? '' : 'Optional. '}Properties must match every criterion; the values inside one criterion are alternatives`,
			options: [
				{
					displayName: 'Criterion',
					name: 'criterion',
					values: criterionRowFields(),
				},
			],
		},
		{
			displayName: 'Criteria (JSON)',
			name: 'criteriaJson',
			type: 'json',
			displayOptions: { show: { ...show, criteriaMode: ['json'] } },
			default: '[\n  {"name": "State", "value": ["OR"]},\n  {"name": "AvailableEquity", "value": [[100000, null]]}\n]',
			description: 'Array of {"name", "value"}. Ranges are [min, max] with null for an open end; only PropertyType nests, holding PType and AdvancedPropertyType criteria.',
		},
		{
			displayName: 'Matching Properties',
			name: 'criteriaMatchCount',
			type: 'options',
			typeOptions: MATCH_COUNT_OPTIONS,
			displayOptions: { show },
			default: '',
			description: 'How many properties match the criteria now, from PropRadar\'s free preview (Purchase=0): counting buys nothing. Counted again as the criteria are edited; nothing here is saved.',
		},
	];
}

/** Reads the criteria a user gave through `criteriaProperties`, validated. */
export function readCriteria(parameters: { mode: string; rows?: IDataObject; json?: unknown }): Criterion[] {
	if (parameters.mode === 'json') return validateCriteria(parameters.json);
	const rows = ((parameters.rows?.criterion as BuilderRow[] | undefined) ?? []);
	return validateCriteria(buildCriteria(rows));
}
