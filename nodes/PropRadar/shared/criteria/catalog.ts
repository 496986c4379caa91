// A criterion is `{ name, value: [...] }`: values inside one criterion are ORed, criteria ANDed (docs/api.md "Criteria").
export type CriterionRange = [number | null, number | null];
export interface Criterion {
	name: string;
	value: Array<string | number | CriterionRange | Criterion>;
	menuLabels?: unknown[] | null;
	chipLabel?: string | null;
}

export type RangeUnit = 'count' | 'area' | 'year' | 'money' | 'percent';

// Lead filters hold the whole criterion, chosen in one step (no value fields).
export interface BuilderCriterion {
	kind:
		| 'values'
		| 'beginsWith'
		| 'boolean'
		| 'range'
		| 'date'
		| 'propertyType'
		| 'listIds'
		| 'leadFilter';
	label: string;
	unit?: RangeUnit;
	example?: string;
	criterion?: Criterion;
	description?: string;
}

// Vacant and Tax-Delinquent send property fields the documents do not list as criteria (docs/api.md).
export const BUILDER_CRITERIA: Record<string, BuilderCriterion> = {
	State: { kind: 'values', label: 'State', example: 'OR, WA' },
	ZipFive: { kind: 'values', label: 'ZIP Code', example: '97202, 97212' },
	City: { kind: 'values', label: 'City', example: 'Portland, Salem' },
	County: { kind: 'values', label: 'County', example: 'Multnomah' },
	Address: { kind: 'values', label: 'Address', example: '123 Main St' },
	APN: { kind: 'beginsWith', label: 'APN (Begins With)', example: '1S1E' },
	PropertyType: { kind: 'propertyType', label: 'Property Type' },
	Beds: { kind: 'range', label: 'Beds', unit: 'count' },
	Baths: { kind: 'range', label: 'Baths', unit: 'count' },
	SqFt: { kind: 'range', label: 'Square Feet', unit: 'area' },
	YearBuilt: { kind: 'range', label: 'Year Built', unit: 'year' },
	Pool: { kind: 'boolean', label: 'Pool' },
	AVM: { kind: 'range', label: 'Estimated Value (AVM)', unit: 'money' },
	AvailableEquity: { kind: 'range', label: 'Available Equity', unit: 'money' },
	EquityPercent: { kind: 'range', label: 'Equity Percent', unit: 'percent' },
	inForeclosure: { kind: 'boolean', label: 'In Foreclosure' },
	ForeclosureStage: {
		kind: 'values',
		label: 'Foreclosure Stage',
		example: 'Preforeclosure, Auction',
	},
	isListedForSale: {
		kind: 'boolean',
		label: 'Listed for Sale',
		description: 'Lead filter: on the market now',
	},
	isFreeAndClear: {
		kind: 'boolean',
		label: 'Free and Clear',
		description: 'Lead filter: no open loan on the property',
	},
	absenteeOwner: {
		kind: 'leadFilter',
		label: 'Absentee Owner',
		description:
			"Lead filter: the owner's mailing address is not the property and no owner exemption (isSameMailingOrExempt off)",
		criterion: { name: 'isSameMailingOrExempt', value: [0] },
	},
	highEquity: {
		kind: 'leadFilter',
		label: 'High Equity (50% or More)',
		description:
			'Lead filter: equity of at least half the estimated value (Equity Percent 50 and up)',
		criterion: { name: 'EquityPercent', value: [[50, null]] },
	},
	preForeclosure: {
		kind: 'leadFilter',
		label: 'Pre-Foreclosure',
		description:
			'Lead filter: a default or lis pendens recorded, before any auction (Foreclosure Stage Preforeclosure)',
		criterion: { name: 'ForeclosureStage', value: ['Preforeclosure'] },
	},
	vacant: {
		kind: 'leadFilter',
		label: 'Vacant',
		description:
			"Lead filter: the site vacancy flag, sent as isSiteVacant 1, the property field's name, not listed in PropRadar's documents as a criterion; Matching Properties (free) shows at once whether the service takes it",
		criterion: { name: 'isSiteVacant', value: [1] },
	},
	taxDelinquent: {
		kind: 'leadFilter',
		label: 'Tax-Delinquent',
		description:
			"Lead filter: property taxes past due, sent as inTaxDelinquency 1, the property field's name, not listed in PropRadar's documents as a criterion; Matching Properties (free) shows at once whether the service takes it",
		criterion: { name: 'inTaxDelinquency', value: [1] },
	},
	LastTransferRecDate: { kind: 'date', label: 'Last Transfer Date' },
	InList: { kind: 'listIds', label: 'In List', example: '12, 15' },
	PropID: { kind: 'values', label: 'Property ID', example: 'P000123, P000456' },
};

export const RANGE_UNITS: Record<RangeUnit, { min: string; max: string; what: string }> = {
	count: { min: '2', max: '4', what: 'a count (beds, baths)' },
	area: { min: '1200', max: '2500', what: 'square feet' },
	year: { min: '1960', max: '2005', what: 'a year' },
	money: { min: '100000', max: '500000', what: 'US dollars, digits only' },
	percent: { min: '50', max: '100', what: 'a percentage, 0 to 100' },
};

export const PTYPE_CODES: Record<string, string> = {
	SFR: 'Single Family',
	CND: 'Condominium',
	MFR: 'Multi-Family',
	LND: 'Land',
	MOB: 'Mobile Home',
	COM: 'Commercial',
	IND: 'Industrial',
	AGR: 'Agricultural',
};

// This, Last and Next of each period, then the last and next 7, 30, 90 and 365 days.
export const DATE_PRESETS = [
	'Today',
	'Yesterday',
	...['Week', 'Month', 'Quarter', 'Year'].flatMap((period) =>
		['This', 'Last', 'Next'].map((when) => `${when} ${period}`),
	),
	...['Last', 'Next'].flatMap((when) => [7, 30, 90, 365].map((days) => `${when} ${days} Days`)),
];

export const PTYPE_OPTIONS = Object.entries(PTYPE_CODES)
	.map(([value, label]) => ({ name: `${label} (${value})`, value }))
	.sort((a, b) => a.name.localeCompare(b.name));
