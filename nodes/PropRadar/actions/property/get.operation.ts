import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import { chargedRecords, chargeProperties } from '../../shared/charges';
import { fieldsPicker } from '../../shared/fieldsets';
import { propIdProperty, readFields, readRequiredString } from '../../shared/parameters';
import type { RunState } from '../types';

const show = { resource: ['property'], operation: ['get'] };

export const description: INodeProperties[] = [
	propIdProperty(show),
	fieldsPicker('property', { show }),
	...chargeProperties(show, 'the property record'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunState): Promise<IDataObject[]> {
	const propId = readRequiredString(this, itemIndex, 'propId', 'Property ID');
	const Fields = readFields(this, itemIndex, 'property');
	return chargedRecords(this, run.budget, itemIndex, { method: 'GET', path: paths.property(propId), qs: { Fields } }, { PropID: propId });
}
