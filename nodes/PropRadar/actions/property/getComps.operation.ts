import { paths } from '../../transport';
import { chargeProperties } from '../../money';
import { propIdProperty, readPropId } from '../../shared/parameters';
import { chargedRead, ownParameters, shownFor } from '../shapes';

const show = { resource: ['property'], operation: ['getComps'] };

export const description = shownFor(show, [
	propIdProperty(show),
	{
		displayName: 'Comparables',
		name: 'compsKind',
		type: 'options',
		options: [
			{ name: 'Recent Sales', value: 'sales' },
			{ name: 'For Sale Listings', value: 'forsale' },
		],
		default: 'sales',
	},
	{
		displayName: 'Subject Overrides',
		name: 'subject',
		type: 'collection',
		placeholder: 'Add Override',
		default: {},
		description: "Values used instead of the subject property's own when finding comparables",
		displayOptions: { show },
		options: [
			{
				displayName: 'Baths',
				name: 'Baths',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 1 },
				default: 2,
				description: "Sent as the API's Bath",
			},
			{
				displayName: 'Beds',
				name: 'Beds',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 3,
			},
			{
				displayName: 'Square Feet',
				name: 'SqFt',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1500,
			},
			{
				displayName: 'Year Built',
				name: 'YearBuilt',
				type: 'number',
				typeOptions: { minValue: 1600, maxValue: 2100 },
				default: 1990,
			},
		],
	},
	...chargeProperties(show, 'the comparables'),
]);

export const keepsInputKeys = true;

export const execute = chargedRead({
	kind: 'propertyDetail',
	read: (context, itemIndex) => {
		const propId = readPropId(context, itemIndex);
		const own = ownParameters(context, itemIndex, description);
		const kind = own.choice<'sales' | 'forsale'>('compsKind');
		const { Baths, ...subject } = own.collection('subject') as Record<string, number>;
		// Seed 001 names the override `Bath`; the parameter keeps the name saved workflows hold.
		if (Baths !== undefined) subject.Bath = Baths;
		return {
			request: { method: 'GET', path: paths.propertyComps(propId, kind), qs: subject },
			extra: { PropID: propId, comps: kind },
		};
	},
});
