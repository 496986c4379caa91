import { FIELD_SCOPES, type FieldScope, type FieldScopeName } from '../nodes/PropRadar/shared/fieldsets';
import { ApiError } from './errors';
import { own } from './store';

/**
 * `Fields` resolution, generated from the package's one fieldset catalogue: fieldset names and
 * single field names, comma-separated, a leading `-` suppressing a name. An unknown name fails the
 * whole request with 400 (API-NOTES.md). Without `Fields`, each endpoint returns its default.
 */
export function resolveFields(scope: FieldScopeName, fieldsParam: string | undefined, defaults: readonly string[]): string[] {
	if (fieldsParam === undefined || fieldsParam.trim() === '') return [...defaults];
	const { fieldsets, fields } = FIELD_SCOPES[scope] as FieldScope;
	const chosen: string[] = [];
	const suppressed = new Set<string>();
	for (const raw of fieldsParam.split(',').map((part) => part.trim()).filter(Boolean)) {
		const suppress = raw.startsWith('-');
		const name = suppress ? raw.slice(1) : raw;
		const expanded = own(fieldsets, name) ?? (fields.includes(name) ? [name] : undefined);
		if (!expanded) throw new ApiError(400, 'Invalid Fields', `Fields: unknown field or fieldset "${name}"`);
		if (suppress) expanded.forEach((field) => suppressed.add(field));
		else chosen.push(...expanded);
	}
	const result = [...new Set(chosen.length > 0 ? chosen : defaults)].filter((field) => !suppressed.has(field));
	return result;
}

/** The record with only the chosen fields (those it has), in the chosen order. */
export function pick<T extends Record<string, unknown>>(record: T, fields: readonly string[]): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const field of fields) if (Object.hasOwn(record, field)) out[field] = record[field];
	return out;
}
