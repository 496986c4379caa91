import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { listEntries } from '../ids';
import { FIELD_SCOPES, fieldsetNamed, type FieldScope, type FieldScopeName } from '../vocabulary';

type FieldsetName = {
	[Scope in FieldScopeName]: keyof (typeof FIELD_SCOPES)[Scope]['fieldsets'];
}[FieldScopeName];

// The API's fieldset names say little to a user: each is labelled by what its fields hold.
const FIELDSET_LABELS: Record<FieldsetName, { label: string; holds: string }> = {
	All: { label: 'All Property Fields', holds: 'Every property field' },
	Card: {
		label: 'Property Card',
		holds:
			'A summary with the owners (Persons): address, building, value or assessed value, equity, last sale, and the lead flags (absentee, high equity, foreclosure, ...)',
	},
	Details: {
		label: 'Building Details',
		holds:
			'PropID with the building: year built, size, rooms, garage, pool, heating, lot and zoning',
	},
	GridForeclosureOptional: {
		label: 'Foreclosure Columns',
		holds:
			'PropID with the foreclosure and auction columns: stage, sale date and place, bids, default amount, trustee, lender',
	},
	Grid: {
		label: 'List Row',
		holds:
			'What a list shows per property: type, address, size, value and equity, owner, whether phones and e-mails can be bought, listed for sale, distress score',
	},
	GridImport: {
		label: 'Import List Row',
		holds: 'What an import list shows per property: type, address, county, ZIP, APN and owner',
	},
	GridOptional: {
		label: 'List Row Extras',
		holds:
			'More columns for a list: lot, building, taxes, loans, last transfer, foreclosure and auction details, and the lead flags',
	},
	LimitedREI: {
		label: 'Investor Sheet',
		holds:
			"An investor's data sheet: building, value and equity, loans, foreclosure and auction, listing, owner and mailing address, and the lead flags",
	},
	ListingsTab: {
		label: 'Listing Owner',
		holds: "The address with the owner's name and mailing address",
	},
	Map: { label: 'Map Point', holds: 'Where the property is: PropID, type, latitude and longitude' },
	Mobile: {
		label: 'Mobile Summary',
		holds:
			'A short summary without owners: address, building, value or assessed value, equity, and the lead flags',
	},
	MyInfoTab: {
		label: 'My Info Links',
		holds: 'Only the disclaimer and the links of the My Info tab',
	},
	Overview: {
		label: 'Property Overview',
		holds:
			'The property at a glance: address, coordinates, building, value, equity, last sale, your interest and status levels, and the lead flags',
	},
	PropertyTab: {
		label: 'Parcel and Building',
		holds:
			'Everything about the parcel and the building: location, legal description, lot, zoning, flood zone, construction, assessed value, taxes and their installments',
	},
	Standard: {
		label: 'Standard Transaction',
		holds:
			"Each transaction's recording date, document, amount, buyer, seller, lender, loan amount and type",
	},
	Table: { label: 'Record Table', holds: 'The records as a table, one column per field' },
	TransactionsTab: {
		label: 'Recorded History',
		holds:
			"What the county recorded: transactions, foreclosure notices, eviction filings, and the recorder's link",
	},
	ValueTab: {
		label: 'Value and Rents',
		holds:
			'Value and rent estimates: AVM, assessed value, equity, last sale, your value and rent, HUD rent, break-even values, listing price, comparable sales and listings',
	},
	default: {
		label: 'Owner in Full',
		holds:
			'The owner in full: role, name, age, gender, phones, e-mails, social accounts, mailing address, residence and other properties, occupation, status',
	},
	overview: {
		label: 'Owner Overview',
		holds:
			"The owner in short, as a property's Persons shows them: role, name, age, gender, occupation, phones, e-mails, social accounts",
	},
};

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

// Fieldsets, fields to add, fields to suppress: the task's order, and alphabetical as n8n's lint asks.
export function fieldsPicker(
	scope: FieldScopeName,
	displayOptions: IDisplayOptions,
	defaultNote = '',
): INodeProperties {
	const { fieldsets, fields, open } = FIELD_SCOPES[scope] as FieldScope;
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
	if (open) {
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
		description:
			`What each record contains. Nothing chosen returns the API's default fields.${defaultNote ? ` ${defaultNote}` : ''}.`.replace(
				/\.\.$/,
				'.',
			),
		options,
	};
}

function namesOf(value: unknown): string[] | undefined {
	const list = listEntries(value);
	if (list.some((name) => typeof name !== 'string')) return undefined;
	return (list as string[]).map((name) => name.trim()).filter(Boolean);
}

// A scope the documents leave open allows any name shaped as a field name besides its own.
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
	type Part = keyof typeof CHOICE_PARTS;
	const parts = {} as Record<Part, string[]>;
	for (const [part, label] of Object.entries(CHOICE_PARTS) as Array<[Part, string]>) {
		const names = namesOf(choice[part]);
		if (!names)
			throw new Error(`Fields > ${label}: must be a list of names, or names separated by commas`);
		parts[part] = names;
	}
	if (!Object.hasOwn(FIELD_SCOPES, scope))
		throw new Error(`Fields: "${typeof scope === 'string' ? scope : typeof scope}" has no fields`);
	const { fieldsets, fields, open } = FIELD_SCOPES[scope] as FieldScope;
	// No record of the service has a field named as every JavaScript object's inherited properties.
	const allowedOther = (name: string) =>
		open === true && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !(name in Object.prototype);
	const unknown = [
		...parts.fieldsets.filter(
			(name) => fieldsetNamed(fieldsets, name) === undefined && !allowedOther(name),
		),
		...[...parts.include, ...parts.exclude].filter(
			(name) => !fields.includes(name) && !allowedOther(name),
		),
		...parts.other.filter((name) => !allowedOther(name.startsWith('-') ? name.slice(1) : name)),
	];
	if (unknown.length > 0) {
		throw new Error(
			`Fields: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not allowed here`,
		);
	}
	// A fieldset goes as the documents write it (`overview` is the property fieldset Overview).
	const names = [
		...parts.fieldsets.map((name) => fieldsetNamed(fieldsets, name) ?? name),
		...parts.include,
		...parts.exclude.map((name) => `-${name}`),
		...parts.other,
	];
	return names.length > 0 ? names.join(',') : undefined;
}
