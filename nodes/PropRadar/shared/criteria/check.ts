import { keyProblem, parseNumberedId, PROP_ID_RULE, shownValue } from '../ids';
import { DATE_PRESETS, type Criterion, type CriterionRange } from './catalog';

const DATE = String.raw`(0?[1-9]|1[0-2])/(0?[1-9]|[12]\d|3[01])/\d{4}`;
// An empty `from:` also takes unknown dates, so a before-date is `from: to: M/D/YYYY` (docs/api.md).
const DATE_PATTERN = new RegExp(
	`^(${DATE}|from: ${DATE} to: ${DATE}|from: to: ${DATE}|from: ${DATE} to:)$`,
);

export function isRelativeDate(value: string): boolean {
	return DATE_PRESETS.includes(value) || DATE_PATTERN.test(value);
}

export class CriteriaError extends Error {}

export function isRange(value: unknown): value is CriterionRange {
	return (
		Array.isArray(value) &&
		value.length === 2 &&
		value.every((end) => end === null || (typeof end === 'number' && Number.isFinite(end))) &&
		!(value[0] === null && value[1] === null) &&
		(value[0] === null || value[1] === null || (value[0] as number) <= (value[1] as number))
	);
}

// The compound criterion and the criteria it holds: the only nesting there is (the lists document).
const COMPOUND = 'PropertyType';
const COMPOUND_PARTS = new Set(['PType', 'AdvancedPropertyType']);

const EXAMPLE = '[{"name": "State", "value": ["OR"]}]';

// The error is thrown outside the catch: n8n's lint takes any throw in a catch for a node error.
function parsedJson(value: string, path: string): unknown {
	let parsed: unknown;
	let valid = true;
	try {
		parsed = JSON.parse(value);
	} catch {
		valid = false;
	}
	if (!valid) throw new CriteriaError(`${path}: not valid JSON. Expected an array like ${EXAMPLE}`);
	return parsed;
}

// Names the builder does not offer are checked for shape only: the service knows more criteria.
export function validateCriteria(raw: unknown, path = 'Criteria', parent?: string): Criterion[] {
	const value = typeof raw === 'string' ? parsedJson(raw, path) : raw;
	if (!Array.isArray(value))
		throw new CriteriaError(`${path}: must be an array of criteria like ${EXAMPLE}`);
	return value.map((entry, index) => checkedCriterion(entry, `${path}[${index}]`, parent));
}

function checkedCriterion(entry: unknown, where: string, parent?: string): Criterion {
	if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
		throw new CriteriaError(`${where}: must be an object with "name" and "value"`);
	const { name, value: values, menuLabels, chipLabel, ...rest } = entry as Record<string, unknown>;
	const extra = Object.keys(rest);
	if (extra.length > 0)
		throw new CriteriaError(
			`${where}: unexpected key "${extra[0]}"; a criterion has name, value, menuLabels and chipLabel`,
		);
	if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(name))
		throw new CriteriaError(`${where}.name: must be a criterion name such as "State" or "ZipFive"`);
	if (parent === COMPOUND && !COMPOUND_PARTS.has(name))
		throw new CriteriaError(
			`${where}: ${COMPOUND} holds PType and AdvancedPropertyType criteria, not "${name}"`,
		);
	if (!Array.isArray(values) || values.length === 0)
		throw new CriteriaError(`${where}.value (${name}): must be a non-empty array`);
	const at = (valueIndex: number) => `${where}.value[${valueIndex}] (${name})`;
	const checked = values.map((element, valueIndex) =>
		checkedElement(element, name, at(valueIndex)),
	);
	checked.forEach((element, valueIndex) => checkIdentifier(element, name, at(valueIndex)));
	const criterion: Criterion = { name, value: checked };
	if (menuLabels !== undefined) criterion.menuLabels = menuLabels as unknown[] | null;
	if (chipLabel !== undefined) criterion.chipLabel = chipLabel as string | null;
	return criterion;
}

function checkedElement(element: unknown, name: string, at: string): Criterion['value'][number] {
	const nested = typeof element === 'object' && element !== null && !Array.isArray(element);
	if (name === COMPOUND && !nested)
		throw new CriteriaError(
			`${at}: ${COMPOUND} holds nested criteria such as {"name": "PType", "value": ["SFR"]}`,
		);
	if (nested) {
		if (name !== COMPOUND) throw new CriteriaError(`${at}: only ${COMPOUND} takes nested criteria`);
		return validateCriteria([element], at, name)[0];
	}
	if (Array.isArray(element)) {
		if (!isRange(element))
			throw new CriteriaError(
				`${at}: a range is [min, max] of numbers with null for an open end, min not above max`,
			);
		return element;
	}
	if (typeof element !== 'string' && !(typeof element === 'number' && Number.isFinite(element)))
		throw new CriteriaError(
			`${at}: must be a string, a number, a [min, max] range or a nested criterion`,
		);
	return element;
}

// The two criteria whose values are identifiers: checked as the node checks every PropID and list ID.
function checkIdentifier(element: unknown, name: string, at: string): void {
	if (name === 'PropID') {
		const problem = typeof element === 'string' ? keyProblem(element) : 'is not text';
		if (problem)
			throw new CriteriaError(`${at}: "${shownValue(element)}" ${problem}; ${PROP_ID_RULE}`);
	} else if (name === 'InList') {
		const parsed = parseNumberedId(element, 'a list ID');
		if ('problem' in parsed)
			throw new CriteriaError(`${at}: "${shownValue(element)}" ${parsed.problem}`);
	}
}
