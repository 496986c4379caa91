import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import { chargedRecords, chargeProperties, type ChargePass, type RunSpending } from '../../money';
import { propIdProperty, readPropId } from '../../shared/parameters';

const show = { resource: ['property'], operation: ['getEvictions'] };

export const description: INodeProperties[] = [
	propIdProperty(show),
	...chargeProperties(show, 'the eviction records'),
];

export const keepsInputKeys = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	spending: RunSpending,
	pass: ChargePass,
): Promise<IDataObject[]> {
	const propId = readPropId(this, itemIndex);
	return chargedRecords(
		this,
		spending,
		itemIndex,
		pass,
		'propertyDetail',
		{ method: 'GET', path: paths.propertyEvictions(propId) },
		{ PropID: propId },
	);
}
