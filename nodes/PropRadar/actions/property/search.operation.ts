import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import { chargedPages, chargeProperties, type ChargePass, type RunSpending } from '../../money';
import { criteriaProperties } from '../../shared/criteria';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { PAGE_LIMITS } from '../../shared/vocabulary';
import {
	propertyNamed,
	readCriteriaParameters,
	readFields,
	readLimit,
	readSort,
	returnAllProperties,
	sortProperty,
} from '../../shared/parameters';

const show = { resource: ['property'], operation: ['search'] };

export const description: INodeProperties[] = [
	...criteriaProperties(show, true),
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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	spending: RunSpending,
	pass: ChargePass,
): Promise<IDataObject[]> {
	const criteria = readCriteriaParameters(this, itemIndex);
	const request = {
		method: 'POST' as const,
		path: paths.properties(),
		qs: {
			Fields: readFields(this, itemIndex, 'property'),
			...readSort(this, itemIndex, propertyNamed(description, 'sort')),
		},
		body: { Criteria: criteria as unknown as IDataObject[] },
	};
	return chargedPages(this, spending, itemIndex, pass, request, {
		kind: 'property',
		pageSize: PAGE_LIMITS.properties.maxLimit,
		limit: readLimit(this, itemIndex),
	});
}
