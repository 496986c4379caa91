import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FIELD_SCOPES, fieldsetNamed, type FieldScope, type FieldScopeName } from '../vocabulary';
import { FIELDSET_LABELS, type FieldsetName } from './labels';

export interface FieldsChoice {
	fieldsets?: string[] | string;
	include?: string[] | string;
	exclude?: string[] | string;
	other?: string[] | string;
}

export function sortedOptions(names: readonly string[]): INodePropertyOptions[] {
	return [...names].sort((a, b) => a.localeCompare(b)).map((name) => ({ name, value: name }));
}

function preview(fields: readonly string[]): string {
	return fields.length > 6
		? `${fields.slice(0, 6).join(', ')} and ${fields.length - 6} more`
		: fields.join(', ');
}

const CHOICE_PARTS = {
	fieldsets: 'Fieldsets',
	include: 'Single Fields to Add',
	exclude: 'Single Fields to Suppress',
	other: 'Unlisted Fields',
} as const;

// No record of the service has a field named as every JavaScript object's inherited properties.
function fieldNameShaped(name: string): boolean {
	return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !(name in Object.prototype);
}

function fieldsetOptions(
	fieldsets: Readonly<Record<string, readonly string[]>>,
): INodePropertyOptions[] {
	return Object.entries(fieldsets)
		.map(([name, fields]) => {
			const { label, holds } = FIELDSET_LABELS[name as FieldsetName];
			return {
				name: `${label} (${name})`,
				value: name,
				description: `${holds}. ${fields.length} field${fields.length === 1 ? '' : 's'}: ${preview(fields)}.`,
			};
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** Fieldsets, fields to add, fields to suppress: the task's order, and alphabetical as n8n's lint asks. */
export function fieldsPicker(
	scope: FieldScopeName,
	displayOptions: IDisplayOptions,
	defaultNote = '',
): INodeProperties {
	const { fieldsets, fields } = FIELD_SCOPES[scope] as FieldScope;
	const options = (
		[
			['include', 'Fields returned in addition to the chosen fieldsets'],
			['exclude', 'Fields left out even when a chosen fieldset contains them'],
		] as const
	).map(([name, description]): INodeProperties => ({
		displayName: CHOICE_PARTS[name],
		name,
		type: 'multiOptions',
		options: sortedOptions(fields),
		default: [],
		description,
	}));
	if ((FIELD_SCOPES[scope] as FieldScope).open) {
		options.push({
			displayName: CHOICE_PARTS.other,
			name: 'other',
			type: 'string',
			default: '',
			placeholder: 'CaseType, -Court',
			description:
				"Field or fieldset names the API documents do not list (they leave these records' fields open), comma-separated, a leading - to suppress one: sent as given, for PropRadar to take or refuse",
		});
	}
	if (Object.keys(fieldsets).length > 0) {
		options.unshift({
			displayName: CHOICE_PARTS.fieldsets,
			name: 'fieldsets',
			type: 'multiOptions',
			options: fieldsetOptions(fieldsets),
			default: [],
			description: 'Named groups of fields, each with what it holds',
		});
	}
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'collection',
		placeholder: 'Choose Fields',
		default: {},
		displayOptions,
		description: (
			`What each record contains. Nothing chosen returns the API's default ` +
			`fields.${defaultNote ? ` ${defaultNote}` : ''}.`
		).replace(/\.\.$/, '.'),
		options,
	};
}

function namesOf(value: unknown): string[] | undefined {
	if (value === undefined || value === null || value === '') return [];
	const list =
		typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
	if (!list || list.some((name) => typeof name !== 'string')) return undefined;
	return (list as string[]).map((name) => name.trim()).filter(Boolean);
}

/** Built on first use: a choice is checked for every item. */
const knownFields = new Map<FieldScopeName, ReadonlySet<string>>();

/** A scope the documents leave open allows any name shaped as a field name besides its own. */
export function unknownFieldNames(scope: FieldScopeName, choice: FieldsChoice): string[] {
	if (!Object.hasOwn(FIELD_SCOPES, scope))
		throw new Error(`Fields: "${typeof scope === 'string' ? scope : typeof scope}" has no fields`);
	const { fieldsets, fields, open } = FIELD_SCOPES[scope] as FieldScope;
	const known = knownFields.get(scope) ?? new Set(fields);
	knownFields.set(scope, known);
	const allowedOther = (name: string) => open === true && fieldNameShaped(name);
	return [
		...(namesOf(choice.fieldsets) ?? []).filter(
			(name) => fieldsetNamed(fieldsets, name) === undefined && !allowedOther(name),
		),
		...[...(namesOf(choice.include) ?? []), ...(namesOf(choice.exclude) ?? [])].filter(
			(name) => !known.has(name) && !allowedOther(name),
		),
		...(namesOf(choice.other) ?? []).filter(
			(name) => !allowedOther(name.startsWith('-') ? name.slice(1) : name),
		),
	];
}

export function toFieldsParam(
	scope: FieldScopeName,
	choice: FieldsChoice | undefined,
): string | undefined {
	if (choice === undefined || choice === null) return undefined;
	if (typeof choice !== 'object' || Array.isArray(choice)) {
		throw new Error(
			`Fields: must be a choice of ${[CHOICE_PARTS.fieldsets, CHOICE_PARTS.include, CHOICE_PARTS.exclude].join(', ')}`,
		);
	}
	const parts = {} as Record<keyof typeof CHOICE_PARTS, string[]>;
	for (const [part, label] of Object.entries(CHOICE_PARTS) as Array<
		[keyof typeof CHOICE_PARTS, string]
	>) {
		const names = namesOf(choice[part]);
		if (!names)
			throw new Error(`Fields > ${label}: must be a list of names, or names separated by commas`);
		parts[part] = names;
	}
	const unknown = unknownFieldNames(scope, parts);
	if (unknown.length > 0) {
		throw new Error(
			`Fields: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not allowed here`,
		);
	}
	// A fieldset goes as the documents write it (`overview` is the property fieldset Overview).
	const { fieldsets } = FIELD_SCOPES[scope] as FieldScope;
	const names = [
		...parts.fieldsets.map((name) => fieldsetNamed(fieldsets, name) ?? name),
		...parts.include,
		...parts.exclude.map((name) => `-${name}`),
		...parts.other,
	];
	return names.length > 0 ? names.join(',') : undefined;
}
