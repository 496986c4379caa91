import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import { chargeProperties } from '../../money';
import { criteriaProperties } from '../../shared/criteria';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { PAGE_LIMITS } from '../../shared/vocabulary';
import {
	readCriteriaParameters,
	readFields,
	returnAllProperties,
	sortProperty,
} from '../../shared/parameters';
import { chargedPagedRead, ownParameters } from '../shapes';

const show = { resource: ['property'], operation: ['search'] };

export const description: INodeProperties[] = [
	...criteriaProperties(show),
	...returnAllProperties(show),
	sortProperty(show, [
		'PropID',
		'AVM',
		'AvailableEquity',
		'EquityPercent',
		'SqFt',
		'YearBuilt',
		'LastTransferRecDate',
		'ZipFive',
	]),
	fieldsPicker(
		'property',
		{ show },
		"Tip: to read a list's properties in full, use the In List criterion.",
	),
	...outputProperties('property', show, true),
	...chargeProperties(show, 'the matching properties'),
];

export const outputs = 'property';

export const execute = chargedPagedRead({
	kind: 'property',
	pageSize: PAGE_LIMITS.properties.maxLimit,
	read: (context, itemIndex) => {
		const criteria = readCriteriaParameters(context, itemIndex);
		return {
			request: {
				method: 'POST',
				path: paths.properties(),
				qs: {
					Fields: readFields(context, itemIndex, 'property'),
					...ownParameters(context, itemIndex, description).sort(),
				},
				body: { Criteria: criteria as unknown as IDataObject[] },
			},
		};
	},
});
