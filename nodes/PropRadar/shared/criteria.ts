import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * The criteria builder (DESIGN.md section 3): a form for the common criteria that knows each
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

type ValueKind = 'values' | 'beginsWith' | 'boolean' | 'range' | 'date' | 'propertyType' | 'listIds';

/** The common criteria of the builder and the kind of value each takes (API-NOTES.md "Criteria"). */
export const BUILDER_CRITERIA: Record<string, { kind: ValueKind; label: string }> = {
	State: { kind: 'values', label: 'State' },
	ZipFive: { kind: 'values', label: 'ZIP Code' },
	City: { kind: 'values', label: 'City' },
	County: { kind: 'values', label: 'County' },
	Address: { kind: 'values', label: 'Address' },
	APN: { kind: 'beginsWith', label: 'APN (Begins With)' },
	PropertyType: { kind: 'propertyType', label: 'Property Type' },
	Beds: { kind: 'range', label: 'Beds' },
	Baths: { kind: 'range', label: 'Baths' },
	SqFt: { kind: 'range', label: 'Square Feet' },
	YearBuilt: { kind: 'range', label: 'Year Built' },
	Pool: { kind: 'boolean', label: 'Pool' },
	AVM: { kind: 'range', label: 'Estimated Value (AVM)' },
	AvailableEquity: { kind: 'range', label: 'Available Equity' },
	EquityPercent: { kind: 'range', label: 'Equity Percent' },
	inForeclosure: { kind: 'boolean', label: 'In Foreclosure' },
	ForeclosureStage: { kind: 'values', label: 'Foreclosure Stage' },
	isListedForSale: { kind: 'boolean', label: 'Listed for Sale' },
	LastTransferRecDate: { kind: 'date', label: 'Last Transfer Date' },
	InList: { kind: 'listIds', label: 'In List' },
	PropID: { kind: 'values', label: 'Property ID' },
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
const DATE_PATTERN = new RegExp(`^(${DATE}|from: ${DATE} to: ${DATE})$`);

/** A relative-date value the API accepts: a preset, a date `M/D/YYYY`, or `from: M/D/YYYY to: M/D/YYYY`. */
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

/**
 * Checks the shape of raw criteria (JSON mode, or anything a workflow passes in) and returns them
 * typed: an array of `{name, value}` whose values are scalars, `[min, max]` ranges with null open
 * ends, or nested criteria. Names are checked for shape only: the service knows more criteria than
 * the builder offers, and answers "Unexpected Criterion" for a name it does not know.
 */
export function validateCriteria(raw: unknown, path = 'Criteria'): Criterion[] {
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
		if (!Array.isArray(values) || values.length === 0) {
			throw new CriteriaError(`${where}.value (${name}): must be a non-empty array`);
		}
		const checked = values.map((element, valueIndex) => {
			const at = `${where}.value[${valueIndex}] (${name})`;
			if (typeof element === 'string') return element;
			if (typeof element === 'number' && Number.isFinite(element)) return element;
			if (Array.isArray(element)) {
				if (!isRange(element)) {
					throw new CriteriaError(`${at}: a range is [min, max] of numbers with null for an open end, min not above max`);
				}
				return element;
			}
			if (typeof element === 'object' && element !== null) return validateCriteria([element], at)[0];
			throw new CriteriaError(`${at}: must be a string, a number, a [min, max] range or a nested criterion`);
		});
		const criterion: Criterion = { name, value: checked };
		if (menuLabels !== undefined) criterion.menuLabels = menuLabels as unknown[] | null;
		if (chipLabel !== undefined) criterion.chipLabel = chipLabel as string | null;
		return criterion;
	});
}

/** One row of the builder as n8n stores it. */
export interface BuilderRow {
	name?: string;
	values?: string;
	has?: boolean;
	min?: number | string | null;
	max?: number | string | null;
	date?: string;
	propertyTypes?: string[];
}

function splitList(text: string | undefined): string[] {
	return (text ?? '')
		.split(',')
		.map((part) => part.trim())
		.filter((part) => part.length > 0);
}

function rangeEnd(value: number | string | null | undefined, label: string, end: 'min' | 'max'): number | null {
	if (value === undefined || value === null || value === '') return null;
	const number = typeof value === 'number' ? value : Number(value);
	if (!Number.isFinite(number)) throw new CriteriaError(`${label} ${end}: must be a number or empty for an open end`);
	return number;
}

/** Turns the builder's rows into criteria, checking each row against its criterion's value kind. */
export function buildCriteria(rows: BuilderRow[]): Criterion[] {
	return rows.map((row, index) => {
		const name = row.name ?? '';
		const known = BUILDER_CRITERIA[name];
		if (!known) {
			throw new CriteriaError(`Criteria row ${index + 1}: "${name}" is not a builder criterion; use JSON mode for other criteria`);
		}
		const label = `Criteria row ${index + 1} (${known.label})`;
		switch (known.kind) {
			case 'values':
			case 'beginsWith': {
				const values = splitList(row.values);
				if (values.length === 0) throw new CriteriaError(`${label}: enter at least one value, comma-separated`);
				const numeric = name === 'ZipFive';
				if (numeric && values.some((value) => !/^\d{5}$/.test(value))) {
					throw new CriteriaError(`${label}: ZIP codes are five digits, comma-separated`);
				}
				if (name === 'State' && values.some((value) => !/^[A-Za-z]{2}$/.test(value))) {
					throw new CriteriaError(`${label}: states are two-letter codes such as OR, comma-separated`);
				}
				return { name, value: numeric ? values.map(Number) : name === 'State' ? values.map((v) => v.toUpperCase()) : values };
			}
			case 'listIds': {
				const ids = splitList(row.values);
				if (ids.length === 0 || ids.some((id) => !/^\d+$/.test(id))) {
					throw new CriteriaError(`${label}: enter list IDs (whole numbers), comma-separated`);
				}
				return { name, value: ids.map(Number) };
			}
			case 'boolean':
				return { name, value: [row.has === false ? 0 : 1] };
			case 'range': {
				const min = rangeEnd(row.min, label, 'min');
				const max = rangeEnd(row.max, label, 'max');
				const range: CriterionRange = [min, max];
				if (!isRange(range)) throw new CriteriaError(`${label}: give a minimum, a maximum or both, the minimum not above the maximum`);
				return { name, value: [range] };
			}
			case 'date': {
				const date = (row.date ?? '').trim();
				if (!isRelativeDate(date)) {
					throw new CriteriaError(`${label}: use a preset such as "Last 30 Days", a date M/D/YYYY, or "from: M/D/YYYY to: M/D/YYYY"`);
				}
				return { name, value: [date] };
			}
			case 'propertyType': {
				const codes = row.propertyTypes ?? [];
				if (codes.length === 0) throw new CriteriaError(`${label}: choose at least one property type`);
				return { name, value: [{ name: 'PType', value: codes }] };
			}
		}
	});
}

/** The criteria UI: a mode, the builder rows, and the JSON field, all under `displayOptions`. */
export function criteriaProperties(show: IDisplayOptions['show'], required: boolean): INodeProperties[] {
	const kindsOf = (kinds: ValueKind[]) => Object.keys(BUILDER_CRITERIA).filter((name) => kinds.includes(BUILDER_CRITERIA[name].kind));
	return [
		{
			displayName: 'Criteria Mode',
			name: 'criteriaMode',
			type: 'options',
			displayOptions: { show },
			options: [
				{ name: 'Builder', value: 'builder', description: 'Pick common criteria in a form' },
				{ name: 'JSON', value: 'json', description: 'Write the Criteria array, any criterion name' },
			],
			default: 'builder',
		},
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
					values: [
						{
							displayName: 'Date',
							name: 'date',
							type: 'string',
							default: 'Last 30 Days',
							description: `A preset (${DATE_PRESETS.slice(0, 4).join(', ')}, Last/Next 7|30|90|365 Days ...), a date M/D/YYYY, or "from: M/D/YYYY to: M/D/YYYY"`,
							displayOptions: { show: { name: kindsOf(['date']) } },
						},
						{
							displayName: 'Maximum',
							name: 'max',
							type: 'string',
							default: '',
							description: 'Empty for no maximum',
							displayOptions: { show: { name: kindsOf(['range']) } },
						},
						{
							displayName: 'Minimum',
							name: 'min',
							type: 'string',
							default: '',
							description: 'Empty for no minimum. For Square Feet, no minimum also matches properties whose size is unknown.',
							displayOptions: { show: { name: kindsOf(['range']) } },
						},
						{
							displayName: 'Must Have',
							name: 'has',
							type: 'boolean',
							default: true,
							description: 'Whether matching properties must have it (on) or must not have it (off)',
							displayOptions: { show: { name: kindsOf(['boolean']) } },
						},
						{
							displayName: 'Name',
							name: 'name',
							type: 'options',
							options: Object.entries(BUILDER_CRITERIA)
								.map(([value, { label }]) => ({ name: label, value }))
								.sort((a, b) => a.name.localeCompare(b.name)),
							default: 'State',
						},
						{
							displayName: 'Property Types',
							name: 'propertyTypes',
							type: 'multiOptions',
							options: Object.entries(PTYPE_CODES)
								.map(([value, label]) => ({ name: `${label} (${value})`, value }))
								.sort((a, b) => a.name.localeCompare(b.name)),
							default: [],
							displayOptions: { show: { name: kindsOf(['propertyType']) } },
						},
						{
							displayName: 'Values',
							name: 'values',
							type: 'string',
							default: '',
							placeholder: 'OR, WA',
							description: 'Comma-separated. For APN, properties whose APN begins with a value match. For In List, list IDs.',
							displayOptions: { show: { name: kindsOf(['values', 'beginsWith', 'listIds']) } },
						},
					],
				},
			],
		},
		{
			displayName: 'Criteria (JSON)',
			name: 'criteriaJson',
			type: 'json',
			displayOptions: { show: { ...show, criteriaMode: ['json'] } },
			default: '[\n  {"name": "State", "value": ["OR"]},\n  {"name": "AvailableEquity", "value": [[100000, null]]}\n]',
			description: 'Array of {"name", "value"}. Ranges are [min, max] with null for an open end; PropertyType nests PType.',
		},
	];
}

/** Reads the criteria a user gave through `criteriaProperties`, validated. */
export function readCriteria(parameters: { mode: string; rows?: IDataObject; json?: unknown }): Criterion[] {
	if (parameters.mode === 'json') return validateCriteria(parameters.json);
	const rows = ((parameters.rows?.criterion as BuilderRow[] | undefined) ?? []);
	return validateCriteria(buildCriteria(rows));
}
