import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FIELD_SCOPES, type FieldScope, type FieldScopeName } from './vocabulary';

/**
 * The node's `Fields` pickers, built from the API's fieldsets and fields in `vocabulary.ts`.
 *
 * `fieldsPicker` generates an operation's `Fields` parameter from one scope of the vocabulary, and
 * `toFieldsParam` turns the user's choice into the query value (`Overview,PropID,-Owner`).
 */

/** The value of a `Fields` picker: fieldsets, single fields, and fields to suppress. */
export interface FieldsChoice {
	fieldsets?: string[] | string;
	include?: string[] | string;
	exclude?: string[] | string;
}

function sortedOptions(names: readonly string[], describe?: (name: string) => string): INodePropertyOptions[] {
	return [...names]
		.sort((a, b) => a.localeCompare(b))
		.map((name) => (describe ? { name, value: name, description: describe(name) } : { name, value: name }));
}

function preview(fields: readonly string[]): string {
	return fields.length > 6 ? `${fields.slice(0, 6).join(', ')} and ${fields.length - 6} more` : fields.join(', ');
}

/**
 * The `Fields` parameter of an operation, generated from one scope of the catalogue: every fieldset
 * and single field the API allows there, and fields to suppress (sent with a leading `-`).
 */
export function fieldsPicker(scope: FieldScopeName, displayOptions: IDisplayOptions, defaultNote = ''): INodeProperties {
	const { fieldsets, fields } = FIELD_SCOPES[scope] as FieldScope;
	const fieldsetNames = Object.keys(fieldsets);
	const options: INodeProperties[] = [
		{
			displayName: 'Fields to Suppress',
			name: 'exclude',
			type: 'multiOptions',
			options: sortedOptions(fields),
			default: [],
			description: 'Fields left out even when a chosen fieldset contains them',
		},
		{
			displayName: 'Single Fields',
			name: 'include',
			type: 'multiOptions',
			options: sortedOptions(fields),
			default: [],
			description: 'Fields returned in addition to the chosen fieldsets',
		},
	];
	if (fieldsetNames.length > 0) {
		options.splice(1, 0, {
			displayName: 'Fieldsets',
			name: 'fieldsets',
			type: 'multiOptions',
			options: sortedOptions(fieldsetNames, (name) => preview(fieldsets[name])),
			default: [],
			description: 'Named groups of fields',
		});
	}
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'collection',
		placeholder: 'Choose Fields',
		default: {},
		displayOptions,
		description: `What each record contains. Nothing chosen returns the API's default fields.${defaultNote ? ` ${defaultNote}` : ''}.`.replace(/\.\.$/, '.'),
		options,
	};
}

/**
 * The names of one part of a choice: a list, or the comma-separated text an expression may give.
 * Undefined when the value is neither.
 */
function namesOf(value: unknown): string[] | undefined {
	if (value === undefined || value === null || value === '') return [];
	const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
	if (!list || list.some((name) => typeof name !== 'string')) return undefined;
	return (list as string[]).map((name) => name.trim()).filter(Boolean);
}

const CHOICE_PARTS = { fieldsets: 'Fieldsets', include: 'Single Fields', exclude: 'Fields to Suppress' } as const;

/** Names of a choice that the scope does not know; empty when the choice is valid. */
export function unknownFieldNames(scope: FieldScopeName, choice: FieldsChoice): string[] {
	if (!Object.hasOwn(FIELD_SCOPES, scope)) throw new Error(`Fields: "${typeof scope === 'string' ? scope : typeof scope}" has no fields`);
	const { fieldsets, fields } = FIELD_SCOPES[scope] as FieldScope;
	const known = new Set(fields);
	return [
		...(namesOf(choice.fieldsets) ?? []).filter((name) => !Object.hasOwn(fieldsets, name)),
		...[...(namesOf(choice.include) ?? []), ...(namesOf(choice.exclude) ?? [])].filter((name) => !known.has(name)),
	];
}

/**
 * The `Fields` query value of a choice (`Overview,PropID,-Owner`), or undefined when nothing was
 * chosen. Throws, naming them, when the choice has names the scope does not allow.
 */
export function toFieldsParam(scope: FieldScopeName, choice: FieldsChoice | undefined): string | undefined {
	if (choice === undefined || choice === null) return undefined;
	if (typeof choice !== 'object' || Array.isArray(choice)) {
		throw new Error('Fields: must be a choice of Fieldsets, Single Fields and Fields to Suppress');
	}
	const parts = {} as Record<keyof typeof CHOICE_PARTS, string[]>;
	for (const [part, label] of Object.entries(CHOICE_PARTS) as Array<[keyof typeof CHOICE_PARTS, string]>) {
		const names = namesOf(choice[part]);
		if (!names) throw new Error(`Fields > ${label}: must be a list of names, or names separated by commas`);
		parts[part] = names;
	}
	const unknown = unknownFieldNames(scope, parts);
	if (unknown.length > 0) {
		throw new Error(`Fields: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not allowed here`);
	}
	const names = [...parts.fieldsets, ...parts.include, ...parts.exclude.map((name) => `-${name}`)];
	return names.length > 0 ? names.join(',') : undefined;
}
