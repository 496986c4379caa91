import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import {
	FIELD_SCOPES,
	fieldsetNamed,
	SIMPLIFIED_FIELDS,
	type FieldScope,
	type SimplifiedKind,
} from '../vocabulary';
import { sortedOptions } from './picker';

// Kept beside the chosen fields of every bought record: what its purchase cost (money/purchase.ts).
const ALWAYS_KEPT = ['_charge'];

export type OutputChoice = 'raw' | 'simplified' | 'selected';

// Simplify (node) and Output (tool) only pick from what Fields asked for: the request and charge stay.
export function outputProperties(
	kind: SimplifiedKind,
	show: NonNullable<IDisplayOptions['show']>,
	charged: boolean,
): INodeProperties[] {
	const simplified = SIMPLIFIED_FIELDS[kind];
	const kept = `${simplified[0]}${charged ? ' and, on a purchase, _charge' : ''}`;
	return [
		{
			displayName: 'Simplify',
			name: 'simple',
			type: 'boolean',
			default: true,
			// From version 1.1 on: a version 1 node (every workflow saved before Simplify) keeps whole records.
			displayOptions: { show: { ...show, '@tool': [false], '@version': [{ _cnd: { gte: 1.1 } }] } },
			description: 'Whether to return a simplified version of the response instead of the raw data',
			hint: `At most 10 of the fields Fields returned: ${simplified.join(', ')}; ${kept} always kept.${charged ? ' What is asked for and charged stays the same.' : ''}`,
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'simplified',
			displayOptions: { show: { ...show, '@tool': [true] } },
			options: [
				{ name: 'Raw', value: 'raw', description: 'Every field Fields returned' },
				{
					name: 'Selected Fields',
					value: 'selected',
					description: `The fields chosen in Output Fields, and ${kept}`,
				},
				{
					name: 'Simplified',
					value: 'simplified',
					description: `At most 10 fields: ${simplified.join(', ')}; and ${kept}`,
				},
			],
			description: `Which fields of each record the AI agent receives, of those Fields returned. ${kept} always kept.`,
		},
		{
			displayName: 'Output Fields',
			name: 'outputFields',
			type: 'multiOptions',
			options: sortedOptions((FIELD_SCOPES[kind] as FieldScope).fields),
			default: [],
			displayOptions: { show: { ...show, '@tool': [true], output: ['selected'] } },
			description: `The fields the AI agent receives besides ${kept}`,
		},
	];
}

export function outputFields(
	kind: SimplifiedKind,
	choice: OutputChoice,
	selected: readonly string[] = [],
): readonly string[] | undefined {
	if (choice === 'raw') return undefined;
	if (choice === 'simplified') return SIMPLIFIED_FIELDS[kind];
	return [SIMPLIFIED_FIELDS[kind][0], ...selected];
}

// A quote is no record and stays whole.
export function shapedRecord(
	record: IDataObject,
	fields: readonly string[] | undefined,
): IDataObject {
	if (fields === undefined || record.preview === true) return record;
	const shaped: IDataObject = {};
	for (const field of [...fields, ...ALWAYS_KEPT])
		if (Object.hasOwn(record, field)) shaped[field] = record[field];
	return shaped;
}

// Sent explicitly (the documents name no default; the search's is `Grid`): the sandbox's default.
export const PROPERTY_GET_DEFAULT_FIELDS = 'PropID,Overview';

// PropID is asked for to pair records to items; `showsPropId` says whether the user's choice shows it.
export function propertyFieldsWithPropId(fields: string | undefined): {
	fields: string;
	showsPropId: boolean;
} {
	const names = (fields ?? '').split(',').filter(Boolean);
	const { fieldsets } = FIELD_SCOPES.property as FieldScope;
	const expand = (name: string) => {
		const fieldset = fieldsetNamed(fieldsets, name);
		return fieldset === undefined ? [name] : [...fieldsets[fieldset]];
	};
	const chosen = names.filter((name) => !name.startsWith('-'));
	const suppressed = names.filter((name) => name.startsWith('-')).map((name) => name.slice(1));
	if (chosen.length === 0) chosen.push(...PROPERTY_GET_DEFAULT_FIELDS.split(','));
	const showsPropId =
		chosen.some((name) => expand(name).includes('PropID')) &&
		!suppressed.some((name) => expand(name).includes('PropID'));
	if (showsPropId)
		return { fields: [...chosen, ...suppressed.map((n) => `-${n}`)].join(','), showsPropId };
	// Every suppression but PropID's, field by field: a suppressed fieldset would take PropID out too.
	const others = [...new Set(suppressed.flatMap(expand).filter((name) => name !== 'PropID'))].map(
		(name) => `-${name}`,
	);
	return { fields: [...chosen, 'PropID', ...others].join(','), showsPropId };
}
