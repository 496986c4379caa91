import type { FIELD_SCOPES, FieldScopeName } from '../vocabulary';

export type FieldsetName = {
	[Scope in FieldScopeName]: keyof (typeof FIELD_SCOPES)[Scope]['fieldsets'];
}[FieldScopeName];

// The API's names say little to a user (GridImport, LimitedREI, MyInfoTab) and person fieldsets are
// lower-case. What each holds is read from its fields in the property document and the lists document.
export const FIELDSET_LABELS: Record<FieldsetName, { label: string; holds: string }> = {
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
