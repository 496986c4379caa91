import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import {
	BUILDER_CRITERIA,
	DATE_PRESETS,
	PTYPE_OPTIONS,
	RANGE_UNITS,
	type BuilderCriterion,
	type RangeUnit,
} from './catalog';

function criteriaWhere(test: (criterion: BuilderCriterion) => boolean): string[] {
	return Object.keys(BUILDER_CRITERIA).filter((name) => test(BUILDER_CRITERIA[name]));
}

const showFor = (test: (criterion: BuilderCriterion) => boolean) => ({
	show: { name: criteriaWhere(test) },
});

function rangeFields(): INodeProperties[] {
	return (Object.keys(RANGE_UNITS) as RangeUnit[]).flatMap((unit): INodeProperties[] => {
		const { min, max, what } = RANGE_UNITS[unit];
		const displayOptions = showFor((criterion) => criterion.unit === unit);
		const unknownSize = unit === 'area' ? ' (also matches properties of unknown size)' : '';
		return [
			{
				displayName: 'From (Minimum)',
				name: 'min',
				type: 'string',
				default: '',
				placeholder: min,
				description: `The smallest value that matches, in ${what}; empty for no minimum${unknownSize}`,
				displayOptions,
			},
			{
				displayName: 'To (Maximum)',
				name: 'max',
				type: 'string',
				default: '',
				placeholder: max,
				description: `The largest value that matches, in ${what}; empty for no maximum`,
				displayOptions,
			},
		];
	});
}

const VALUES_DESCRIPTION = {
	beginsWith: 'Comma-separated: properties whose APN begins with one of them match',
	listIds: 'Comma-separated list IDs: properties in any of these lists match',
	values: 'Comma-separated: properties with any of these match',
};

function valueFields(): INodeProperties[] {
	return criteriaWhere((criterion) => criterion.kind in VALUES_DESCRIPTION).map((name) => ({
		displayName: 'Values',
		name: 'values',
		type: 'string',
		default: '',
		placeholder: BUILDER_CRITERIA[name].example,
		description: VALUES_DESCRIPTION[BUILDER_CRITERIA[name].kind as keyof typeof VALUES_DESCRIPTION],
		displayOptions: { show: { name: [name] } },
	}));
}

const CRITERION_FIELD: INodeProperties = {
	displayName: 'Criterion',
	name: 'name',
	type: 'options',
	options: Object.entries(BUILDER_CRITERIA)
		.map(([value, { label, description }]) => ({
			name: label,
			value,
			...(description ? { description } : {}),
		}))
		.sort((a, b) => a.name.localeCompare(b.name)),
	default: 'State',
	description:
		'What to match. Lead filters (Absentee Owner, Free and Clear, High Equity, Listed for Sale, Pre-Foreclosure, Tax-Delinquent, Vacant) are complete in one choice.',
};

const isPropertyType = (criterion: BuilderCriterion) => criterion.kind === 'propertyType';

const OTHER_FIELDS: INodeProperties[] = [
	{
		displayName: 'Date',
		name: 'date',
		type: 'string',
		default: 'Last 30 Days',
		placeholder: 'Last 30 Days',
		description: `A preset (${DATE_PRESETS.slice(0, 4).join(', ')}, Last/Next 7|30|90|365 Days ...), a date M/D/YYYY, or "from: M/D/YYYY to: M/D/YYYY"`,
		displayOptions: showFor((criterion) => criterion.kind === 'date'),
	},
	{
		// Off is "must not have", not "either": the name says both (the stored values are unchanged).
		displayName: 'Must Have (Off: Must Not Have)',
		name: 'has',
		type: 'boolean',
		default: true,
		description:
			'Whether matching properties must have it (on) or must not have it (off). To match properties either way, remove this criterion.',
		displayOptions: showFor((criterion) => criterion.kind === 'boolean'),
	},
	{
		displayName: 'Property Types',
		name: 'propertyTypes',
		type: 'multiOptions',
		options: PTYPE_OPTIONS,
		default: [],
		displayOptions: showFor(isPropertyType),
	},
	{
		displayName: 'Property Types (Advanced)',
		name: 'advancedPropertyTypes',
		type: 'string',
		default: '',
		placeholder: 'Duplex, Single Family Residence',
		description:
			'Comma-separated AdvancedPropertyType values, matched with the property types above (either one matches)',
		displayOptions: showFor(isPropertyType),
	},
];

// n8n's lint sorts a row's fields by shown name, so the names carry the reading order.
function criterionRowFields(): INodeProperties[] {
	return [CRITERION_FIELD, ...OTHER_FIELDS, ...rangeFields(), ...valueFields()].sort((a, b) =>
		a.displayName.localeCompare(b.displayName),
	);
}

// Rows Matching Properties follows field by field: more than the builder's criteria, each once.
const MATCH_COUNT_ROWS = 30;

// n8n reloads the count only when these paths' joined text changes: one path per row field (docs/design.md).
const MATCH_COUNT_ROW_FIELDS = [...new Set(criterionRowFields().map((field) => field.name))];
const MATCH_COUNT_OPTIONS = {
	loadOptionsMethod: 'getCriteriaMatchCount',
	loadOptionsDependsOn: [
		'criteriaMode',
		'criteria',
		'criteriaJson',
		'criteria.criterion.length',
		...Array.from({ length: MATCH_COUNT_ROWS }, (_, row) =>
			MATCH_COUNT_ROW_FIELDS.map((field) => `criteria.criterion[${row}].${field}`),
		).flat(),
	],
};

export const CRITERIA_MODE: INodeProperties = {
	displayName: 'Criteria Mode',
	name: 'criteriaMode',
	type: 'options',
	options: [
		{
			name: 'Builder',
			value: 'builder',
			description: 'Pick common criteria and lead filters in a form',
		},
		{ name: 'JSON', value: 'json', description: 'Write the Criteria array, any criterion name' },
	],
	default: 'builder',
};

export function criteriaProperties(show: IDisplayOptions['show']): INodeProperties[] {
	return [
		{ ...CRITERIA_MODE, displayOptions: { show } },
		{
			displayName: 'Matching Properties',
			name: 'criteriaMatchCount',
			type: 'options',
			typeOptions: MATCH_COUNT_OPTIONS,
			displayOptions: { show },
			default: '',
			description:
				"How many properties match the criteria below now, from PropRadar's free preview (Purchase=0): counting buys nothing. Counted again as the criteria are edited; nothing here is saved.",
		},
		{
			displayName: 'Criteria',
			name: 'criteria',
			type: 'fixedCollection',
			placeholder: 'Add Criterion',
			typeOptions: { multipleValues: true },
			displayOptions: { show: { ...show, criteriaMode: ['builder'] } },
			default: {},
			description:
				'Properties must match every criterion; the values inside one criterion are alternatives',
			options: [
				{
					displayName: 'Criterion',
					name: 'criterion',
					values: criterionRowFields(),
				},
			],
		},
		{
			displayName: 'Criteria (JSON)',
			name: 'criteriaJson',
			type: 'json',
			displayOptions: { show: { ...show, criteriaMode: ['json'] } },
			default:
				'[\n  {"name": "State", "value": ["OR"]},\n  {"name": "AvailableEquity", "value": [[100000, null]]}\n]',
			description:
				'Array of {"name", "value"}. Ranges are [min, max] with null for an open end; only PropertyType nests, holding PType and AdvancedPropertyType criteria.',
		},
	];
}
