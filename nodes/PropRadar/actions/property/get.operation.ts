import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import { chargedRecords, chargeProperties, type RunSpending } from '../../money';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { propIdProperty, readFields, readPropId } from '../../shared/parameters';

const show = { resource: ['property'], operation: ['get'] };

export const description: INodeProperties[] = [
	propIdProperty(show),
	fieldsPicker('property', { show }),
	...outputProperties('property', show, true),
	...chargeProperties(show, 'the property record'),
];

export const keepsInputKeys = true;
export const outputs = 'property';

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	spending: RunSpending,
): Promise<IDataObject[]> {
	const propId = readPropId(this, itemIndex);
	const Fields = readFields(this, itemIndex, 'property');
	return chargedRecords(
		this,
		spending,
		itemIndex,
		'property',
		{ method: 'GET', path: paths.property(propId), qs: { Fields } },
		{ PropID: propId },
	);
}
