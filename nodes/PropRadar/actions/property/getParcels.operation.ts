import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import { chargedRequest, chargeProperties, type ChargePass, type RunSpending } from '../../money';
import { propIdProperty, readPropId } from '../../shared/parameters';

const show = { resource: ['property'], operation: ['getParcels'] };

export const description: INodeProperties[] = [
	propIdProperty(show),
	{
		displayName:
			'A parcel can come in several pieces (for example when a road cuts through it). The output is one item per property with every piece in "parcels".',
		name: 'parcelsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	...chargeProperties(show, 'the parcel shapes'),
];

export const keepsInputKeys = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	spending: RunSpending,
	pass: ChargePass,
): Promise<IDataObject[]> {
	const propId = readPropId(this, itemIndex);
	const { response, preview, note } = await chargedRequest(
		this,
		spending,
		itemIndex,
		pass,
		'propertyDetail',
		{ method: 'GET', path: paths.propertyParcels(propId) },
	);
	if (preview) return [{ PropID: propId, ...preview }];
	const parcels = response.results ?? [];
	return [{ PropID: propId, pieceCount: parcels.length, parcels, _charge: note }];
}
