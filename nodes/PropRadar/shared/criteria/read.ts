import type { IDataObject } from 'n8n-workflow';

import { keyProblem, listEntries, parseNumberedId, PROP_ID_RULE, shownValue } from '../ids';
import { BUILDER_CRITERIA, PTYPE_CODES, type Criterion, type CriterionRange } from './catalog';
import { CriteriaError, isRange, isRelativeDate, validateCriteria } from './check';

// An expression keeps its result's type (a number, an array, ...): every field is checked.
interface BuilderRow {
	name?: unknown;
	values?: unknown;
	has?: unknown;
	min?: unknown;
	max?: unknown;
	date?: unknown;
	propertyTypes?: unknown;
	advancedPropertyTypes?: unknown;
}

// Comma-separated text, a number, or an array of them (what `{{ $json.ids }}` gives).
function textEntries(
	value: unknown,
	label: string,
	what: string,
	numberText: (number: number) => string = String,
): string[] {
	return listEntries(value)
		.flatMap((part) => {
			if (typeof part === 'number' && Number.isFinite(part)) return [numberText(part)];
			if (typeof part === 'string') return part.split(',');
			throw new CriteriaError(`${label}: ${what} must be text, a number or a list of them`);
		})
		.map((text) => text.trim())
		.filter((text) => text.length > 0);
}

function rangeEnd(value: unknown, label: string, end: 'min' | 'max'): number | null {
	if (value === undefined || value === null || value === '') return null;
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: NaN;
	if (!Number.isFinite(number))
		throw new CriteriaError(`${label} ${end}: must be a number or empty for an open end`);
	return number;
}

// What Must Have holds, as a switch or as an expression may give it (no value: the default, on).
const MUST_HAVE: unknown[] = [undefined, null, true, 1, 'true', '1'];
const MUST_NOT_HAVE: unknown[] = [false, 0, 'false', '0'];

function mustHave(value: unknown, label: string): boolean {
	if (MUST_HAVE.includes(value)) return true;
	if (MUST_NOT_HAVE.includes(value)) return false;
	throw new CriteriaError(
		`${label}: Must Have (Off: Must Not Have) is on (true: must have it) or off (false: must not have it), got ${JSON.stringify(value)}`,
	);
}

function valuesRow(name: string, row: BuilderRow, label: string): Criterion {
	// A ZIP code that came as a number lost its leading zeros: 2134 is 02134.
	const values = textEntries(
		row.values,
		label,
		'values',
		name === 'ZipFive' ? (zip) => String(zip).padStart(5, '0') : undefined,
	);
	if (values.length === 0)
		throw new CriteriaError(`${label}: enter at least one value, comma-separated`);
	if (name === 'ZipFive') {
		if (values.some((value) => !/^\d{5}$/.test(value)))
			throw new CriteriaError(`${label}: ZIP codes are five digits, comma-separated`);
		return { name, value: values.map(Number) };
	}
	if (name === 'State') {
		if (values.some((value) => !/^[A-Za-z]{2}$/.test(value)))
			throw new CriteriaError(`${label}: states are two-letter codes such as OR, comma-separated`);
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

function listIdsRow(name: string, row: BuilderRow, label: string): Criterion {
	// A number past 2^53 from an expression has already lost digits: refused, not sent rounded.
	const rounded = listEntries(row.values).find(
		(value) => typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value),
	);
	if (rounded !== undefined) {
		const parsed = parseNumberedId(rounded, 'a list ID');
		throw new CriteriaError(
			`${label}: "${shownValue(rounded)}" ${'problem' in parsed ? parsed.problem : ''}`,
		);
	}
	const ids = textEntries(row.values, label, 'values');
	if (ids.length === 0)
		throw new CriteriaError(`${label}: enter list IDs (whole numbers), comma-separated`);
	return {
		name,
		value: ids.map((id) => {
			const parsed = parseNumberedId(id, 'a list ID');
			if ('problem' in parsed) throw new CriteriaError(`${label}: "${id}" ${parsed.problem}`);
			return parsed.id;
		}),
	};
}

function rangeRow(name: string, row: BuilderRow, label: string): Criterion {
	const range: CriterionRange = [rangeEnd(row.min, label, 'min'), rangeEnd(row.max, label, 'max')];
	if (!isRange(range))
		throw new CriteriaError(
			`${label}: give a minimum, a maximum or both, the minimum not above the maximum`,
		);
	return { name, value: [range] };
}

function dateRow(name: string, row: BuilderRow, label: string): Criterion {
	const date = typeof row.date === 'string' ? row.date.trim() : '';
	if (!isRelativeDate(date))
		throw new CriteriaError(
			`${label}: use a preset such as "Last 30 Days", a date M/D/YYYY, or "from: M/D/YYYY to: M/D/YYYY"`,
		);
	return { name, value: [date] };
}

function propertyTypeRow(name: string, row: BuilderRow, label: string): Criterion {
	const codes = textEntries(row.propertyTypes, label, 'property types');
	const unknownCode = codes.find((code) => !Object.hasOwn(PTYPE_CODES, code));
	if (unknownCode !== undefined)
		throw new CriteriaError(
			`${label}: "${unknownCode}" is not a property type code; codes: ${Object.keys(PTYPE_CODES).join(', ')}`,
		);
	const advanced = textEntries(row.advancedPropertyTypes, label, 'advanced property types');
	if (codes.length === 0 && advanced.length === 0)
		throw new CriteriaError(
			`${label}: choose at least one property type or give advanced property types`,
		);
	const parts: Criterion[] = [];
	if (codes.length > 0) parts.push({ name: 'PType', value: codes });
	if (advanced.length > 0) parts.push({ name: 'AdvancedPropertyType', value: advanced });
	return { name, value: parts };
}

function builderRow(given: unknown, index: number): Criterion {
	const row = (typeof given === 'object' && given !== null ? given : {}) as BuilderRow;
	const name =
		typeof row.name === 'string'
			? row.name
			: row.name === undefined || row.name === null
				? ''
				: shownValue(row.name);
	if (!Object.hasOwn(BUILDER_CRITERIA, name))
		throw new CriteriaError(
			`Criteria row ${index + 1}: "${name}" is not a builder criterion; use JSON mode for other criteria`,
		);
	const known = BUILDER_CRITERIA[name];
	const label = `Criteria row ${index + 1} (${known.label})`;
	switch (known.kind) {
		case 'values':
		case 'beginsWith':
			return valuesRow(name, row, label);
		case 'listIds':
			return listIdsRow(name, row, label);
		case 'boolean':
			return { name, value: [mustHave(row.has, label) ? 1 : 0] };
		case 'range':
			return rangeRow(name, row, label);
		case 'date':
			return dateRow(name, row, label);
		case 'leadFilter':
			return JSON.parse(JSON.stringify(known.criterion)) as Criterion;
		case 'propertyType':
			return propertyTypeRow(name, row, label);
	}
}

export function buildCriteria(rows: BuilderRow[]): Criterion[] {
	if (!Array.isArray(rows)) throw new CriteriaError('Criteria: the builder rows must be a list');
	return rows.map(builderRow);
}

export function readCriteria(parameters: {
	mode: string;
	rows?: IDataObject;
	json?: unknown;
}): Criterion[] {
	if (parameters.mode === 'json') return validateCriteria(parameters.json);
	const rows = (parameters.rows?.criterion as BuilderRow[] | undefined) ?? [];
	return validateCriteria(buildCriteria(rows));
}
