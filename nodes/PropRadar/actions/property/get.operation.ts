import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import {
	boughtBeforeProperties,
	chargedRecords,
	chargeProperties,
	type RunSpending,
} from '../../money';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { propIdProperty, readFields, readPropId } from '../../shared/parameters';
import type { BoughtKey } from '../types';

const show = { resource: ['property'], operation: ['get'] };

export const description: INodeProperties[] = [
	propIdProperty(show),
	fieldsPicker('property', { show }),
	...outputProperties('property', show, true),
	...chargeProperties(show, 'the property record'),
	...boughtBeforeProperties(show, 'PropID', 'property record'),
];

export const keepsInputKeys = true;
export const boughtKey: BoughtKey = {
	name: 'PropID',
	read: (context, itemIndex) => readPropId(context, itemIndex),
};
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
