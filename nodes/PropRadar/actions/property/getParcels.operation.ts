import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import { chargedRequest, chargeProperties, quoteRecord } from '../../shared/charges';
import { propIdProperty, readRequiredString } from '../../shared/parameters';
import type { RunState } from '../types';

const show = { resource: ['property'], operation: ['getParcels'] };

export const description: INodeProperties[] = [
	propIdProperty(show),
	{
		displayName: 'A parcel can come in several pieces (for example when a road cuts through it). The output is one item per property with every piece in "parcels".',
		name: 'parcelsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	...chargeProperties(show, 'the parcel shapes'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunState): Promise<IDataObject[]> {
	const propId = readRequiredString(this, itemIndex, 'propId', 'Property ID');
	const { mode, response } = await chargedRequest(this, run.budget, itemIndex, { method: 'GET', path: paths.propertyParcels(propId) });
	if (mode === 'preview') return [quoteRecord(response, { PropID: propId })];
	const parcels = response.results ?? [];
	return [{ PropID: propId, pieceCount: parcels.length, parcels }];
}
