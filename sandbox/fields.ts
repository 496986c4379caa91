import {
	FIELD_SCOPES,
	fieldsetNamed,
	type FieldScope,
	type FieldScopeName,
} from '../nodes/PropRadar/shared/vocabulary';
import { ApiError } from './errors';
import { own } from './store';

/**
 * The fieldsets that show AVM and AvailableEquity or AssessedValue and TotalLoanBalance, depending
 * on which best approximates the property's value (the property document), and the two pairs.
 */
const VALUE_SWAP_FIELDSETS = new Set(['Card', 'Mobile', 'Overview']);
const AVM_PAIR = ['AVM', 'AvailableEquity'];
const ASSESSED_PAIR = ['AssessedValue', 'TotalLoanBalance'];
const VALUE_FIELDS = new Set([...AVM_PAIR, ...ASSESSED_PAIR]);

export interface ResolvedFields {
	fields: string[];
	/**
	 * The value fields that only a Card, Mobile or Overview fieldset brought in: each property shows
	 * one pair of them (`fieldsFor`). A value field named on its own, or by another fieldset, stays.
	 */
	swappable: ReadonlySet<string>;
}

function resolve(
	scope: FieldScopeName,
	fieldsParam: string | undefined,
	defaults: ResolvedFields,
): ResolvedFields {
	if (fieldsParam === undefined || fieldsParam.trim() === '') return defaults;
	const { fieldsets, fields } = FIELD_SCOPES[scope] as FieldScope;
	const chosen: string[] = [];
	const suppressed = new Set<string>();
	const swapped = new Set<string>();
	const kept = new Set<string>();
	for (const raw of fieldsParam
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean)) {
		const suppress = raw.startsWith('-');
		const name = suppress ? raw.slice(1) : raw;
		// Fieldset names in any case (the documents' own `Fields=overview,Persons`); field names as written.
		const fieldsetName = fieldsetNamed(fieldsets, name);
		const fieldset = fieldsetName === undefined ? undefined : own(fieldsets, fieldsetName);
		const expanded = fieldset ?? (fields.includes(name) ? [name] : undefined);
		if (!expanded)
			throw new ApiError(400, 'Invalid Fields', `Fields: unknown field or fieldset "${name}"`);
		if (suppress) {
			expanded.forEach((field) => suppressed.add(field));
			continue;
		}
		chosen.push(...expanded);
		const swaps = fieldset !== undefined && VALUE_SWAP_FIELDSETS.has(fieldsetName!);
		for (const field of expanded) if (VALUE_FIELDS.has(field)) (swaps ? swapped : kept).add(field);
	}
	if (chosen.length === 0)
		return {
			fields: defaults.fields.filter((field) => !suppressed.has(field)),
			swappable: defaults.swappable,
		};
	return {
		fields: [...new Set(chosen)].filter((field) => !suppressed.has(field)),
		swappable: new Set([...swapped].filter((field) => !kept.has(field))),
	};
}

/**
 * `Fields` resolution, generated from the API's fieldsets and fields (the vocabulary the node uses too): fieldset names and
 * single field names, comma-separated, a leading `-` suppressing a name. An unknown name fails the
 * whole request with 400 (docs/api.md). Without `Fields`, each endpoint returns its default.
 */
export function resolveFields(
	scope: FieldScopeName,
	fieldsParam: string | undefined,
	defaults: readonly string[],
): string[] {
	return resolve(scope, fieldsParam, { fields: [...defaults], swappable: new Set() }).fields;
}

/**
 * `Fields` of the property and list-item reads, whose Card, Mobile and Overview fieldsets swap value
 * fields per property; the default is given as a `Fields` value too (e.g. `PropID,Overview`).
 */
export function resolvePropertyFields(
	scope: 'property' | 'listItem',
	fieldsParam: string | undefined,
	defaultParam: string,
): ResolvedFields {
	const defaults = resolve(scope, defaultParam, { fields: [], swappable: new Set() });
	return resolve(scope, fieldsParam, defaults);
}

/** The fields one property shows: of the swappable value fields, the pair that approximates its value. */
export function fieldsFor(resolved: ResolvedFields, valuedByAvm: boolean): string[] {
	const hidden = valuedByAvm ? ASSESSED_PAIR : AVM_PAIR;
	return resolved.fields.filter(
		(field) => !(resolved.swappable.has(field) && hidden.includes(field)),
	);
}

/** The record with only the chosen fields (those it has), in the chosen order. */
export function pick<T extends Record<string, unknown>>(
	record: T,
	fields: readonly string[],
): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const field of fields) if (Object.hasOwn(record, field)) out[field] = record[field];
	return out;
}
