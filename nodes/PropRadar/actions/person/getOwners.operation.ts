import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import {
	boughtBeforeProperties,
	chargedRecords,
	chargeProperties,
	type ChargePass,
	type RunSpending,
} from '../../money';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { propIdProperty, readFields, readPropId } from '../../shared/parameters';
import type { BoughtKey } from '../types';

const show = { resource: ['person'], operation: ['getOwners'] };

export const description: INodeProperties[] = [
	propIdProperty(show),
	fieldsPicker(
		'person',
		{ show },
		'Fieldsets: default (everything) and overview. Phone and Email show what was purchased.',
	),
	...outputProperties('person', show, true),
	...chargeProperties(show, 'the owner records'),
	...boughtBeforeProperties(show, 'PropID', 'owners'),
];

export const keepsInputKeys = true;
export const boughtKey: BoughtKey = {
	name: 'PropID',
	read: (context, itemIndex) => readPropId(context, itemIndex),
};
export const outputs = 'person';

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	spending: RunSpending,
	pass: ChargePass,
): Promise<IDataObject[]> {
	const propId = readPropId(this, itemIndex);
	const Fields = readFields(this, itemIndex, 'person');
	return chargedRecords(
		this,
		spending,
		itemIndex,
		pass,
		'person',
		{ method: 'GET', path: paths.propertyPersons(propId), qs: { Fields } },
		{ PropID: propId },
	);
}
