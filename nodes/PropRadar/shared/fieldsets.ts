import type {
	IDataObject,
	IDisplayOptions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import {
	FIELD_SCOPES,
	fieldsetNamed,
	SIMPLIFIED_FIELDS,
	type FieldScope,
	type FieldScopeName,
	type SimplifiedKind,
} from './vocabulary';

export interface FieldsChoice {
	fieldsets?: string[] | string;
	include?: string[] | string;
	exclude?: string[] | string;
	other?: string[] | string;
}

function sortedOptions(names: readonly string[]): INodePropertyOptions[] {
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

type FieldsetName = {
	[Scope in FieldScopeName]: keyof (typeof FIELD_SCOPES)[Scope]['fieldsets'];
}[FieldScopeName];

// The API's names say little to a user (GridImport, LimitedREI, MyInfoTab) and person fieldsets are
// lower-case. What each holds is read from its fields in the property document and the lists document.
const FIELDSET_LABELS: Record<FieldsetName, { label: string; holds: string }> = {
	All: { label: 'All Property Fields', holds: 'Every property field' },
	Card: {
		label: 'Property Card',
		holds:
			'A summary with the owners (Persons): address, building, value or ' +
			'assessed value, equity, last sale, and the lead flags (absentee, high ' +
			'equity, foreclosure, ...)',
	},
	Details: {
		label: 'Building Details',
		holds:
			'PropID with the building: year built, size, rooms, garage, pool, ' +
			'heating, lot and zoning',
	},
	GridForeclosureOptional: {
		label: 'Foreclosure Columns',
		holds:
			'PropID with the foreclosure and auction columns: stage, sale date and place, ' +
			'bids, default amount, trustee, lender',
	},
	Grid: {
		label: 'List Row',
		holds:
			'What a list shows per property: type, address, size, value and equity, owner, ' +
			'whether phones and e-mails can be bought, listed for sale, distress score',
	},
	GridImport: {
		label: 'Import List Row',
		holds: 'What an import list shows per property: type, address, county, ZIP, APN and owner',
	},
	GridOptional: {
		label: 'List Row Extras',
		holds:
			'More columns for a list: lot, building, taxes, loans, last transfer, ' +
			'foreclosure and auction details, and the lead flags',
	},
	LimitedREI: {
		label: 'Investor Sheet',
		holds:
			"An investor's data sheet: building, value and equity, loans, foreclosure and " +
			'auction, listing, owner and mailing address, and the lead flags',
	},
	ListingsTab: {
		label: 'Listing Owner',
		holds: "The address with the owner's name and mailing address",
	},
	Map: { label: 'Map Point', holds: 'Where the property is: PropID, type, latitude and longitude' },
	Mobile: {
		label: 'Mobile Summary',
		holds:
			'A short summary without owners: address, building, value or assessed value, ' +
			'equity, and the lead flags',
	},
	MyInfoTab: {
		label: 'My Info Links',
		holds: 'Only the disclaimer and the links of the My Info tab',
	},
	Overview: {
		label: 'Property Overview',
		holds:
			'The property at a glance: address, coordinates, building, value, equity, last ' +
			'sale, your interest and status levels, and the lead flags',
	},
	PropertyTab: {
		label: 'Parcel and Building',
		holds:
			'Everything about the parcel and the building: location, legal ' +
			'description, lot, zoning, flood zone, construction, assessed value, taxes ' +
			'and their installments',
	},
	Standard: {
		label: 'Standard Transaction',
		holds:
			"Each transaction's recording date, document, amount, buyer, seller, lender, " +
			'loan amount and type',
	},
	Table: { label: 'Record Table', holds: 'The records as a table, one column per field' },
	TransactionsTab: {
		label: 'Recorded History',
		holds:
			'What the county recorded: transactions, foreclosure notices, eviction ' +
			"filings, and the recorder's link",
	},
	ValueTab: {
		label: 'Value and Rents',
		holds:
			'Value and rent estimates: AVM, assessed value, equity, last sale, ' +
			'your value and rent, HUD rent, break-even values, listing price, ' +
			'comparable sales and listings',
	},
	default: {
		label: 'Owner in Full',
		holds:
			'The owner in full: role, name, age, gender, phones, e-mails, social accounts, ' +
			'mailing address, residence and other properties, occupation, status',
	},
	overview: {
		label: 'Owner Overview',
		holds:
			"The owner in short, as a property's Persons shows them: role, name, age, " +
			'gender, occupation, phones, e-mails, social accounts',
	},
};

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
	const options: INodeProperties[] = [
		{
			displayName: CHOICE_PARTS.include,
			name: 'include',
			type: 'multiOptions',
			options: sortedOptions(fields),
			default: [],
			description: 'Fields returned in addition to the chosen fieldsets',
		},
		{
			displayName: CHOICE_PARTS.exclude,
			name: 'exclude',
			type: 'multiOptions',
			options: sortedOptions(fields),
			default: [],
			description: 'Fields left out even when a chosen fieldset contains them',
		},
	];
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

/** Kept beside the chosen fields of every bought record: what its purchase cost (money/chargeNote.ts). */
const ALWAYS_KEPT = ['_charge'];

export type OutputChoice = 'raw' | 'simplified' | 'selected';

/**
 * Simplify on the node, Output on its tool variant (n8n's UX guidelines): which fields of each
 * record reach the output. Both pick from the record Fields asked for, so the request, and what it
 * is charged, stay the same.
 */
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
			hint:
				`At most 10 of the fields Fields returned: ${simplified.join(', ')}; ${kept} always ` +
				`kept.${charged ? ' What is asked for and charged stays the same.' : ''}`,
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

/** The fields a record keeps for an Output choice; undefined keeps them all. */
export function outputFields(
	kind: SimplifiedKind,
	choice: OutputChoice,
	selected: readonly string[] = [],
): readonly string[] | undefined {
	if (choice === 'raw') return undefined;
	if (choice === 'simplified') return SIMPLIFIED_FIELDS[kind];
	return [SIMPLIFIED_FIELDS[kind][0], ...selected];
}

/** The record with only `fields` (in that order) and what it cost; a quote is no record and stays whole. */
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

/**
 * What Property > Get asks for when Fields is left empty: what the property read answers by
 * default (the sandbox's `GET /v1/properties/{PropID}`; the documents name no default). Sent
 * explicitly, since the search, which reads many properties at once, has another default (`Grid`).
 */
export const PROPERTY_GET_DEFAULT_FIELDS = 'PropID,Overview';

/**
 * The property `Fields` a read by PropID criterion sends so that every record can be paired to its
 * item by PropID, and whether the user's own choice shows PropID (if not, it is taken out again).
 * `fields` is what `toFieldsParam` gave for the property scope (known names only); a choice of
 * suppressions alone applies them to the default, as the service does.
 */
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
