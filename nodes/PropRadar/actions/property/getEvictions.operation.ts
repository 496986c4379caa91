import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import { chargedRecords, chargeProperties } from '../../shared/charges';
import { propIdProperty, readRequiredString } from '../../shared/parameters';
import type { RunState } from '../types';

const show = { resource: ['property'], operation: ['getEvictions'] };

export const description: INodeProperties[] = [propIdProperty(show), ...chargeProperties(show, 'the eviction records')];

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunState): Promise<IDataObject[]> {
	const propId = readRequiredString(this, itemIndex, 'propId', 'Property ID');
	return chargedRecords(this, run.budget, itemIndex, { method: 'GET', path: paths.propertyEvictions(propId) }, { PropID: propId });
}
