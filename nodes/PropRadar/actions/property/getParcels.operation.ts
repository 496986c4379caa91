import { paths } from '../../transport';
import { chargeProperties } from '../../money';
import { propIdProperty } from '../../shared/parameters';
import { byPropId, chargedRead, shownFor } from '../shapes';

const show = { resource: ['property'], operation: ['getParcels'] };

export const description = shownFor(show, [
	propIdProperty(show),
	{
		displayName:
			'A parcel can come in several pieces (for example when a road cuts through it). The output is one item per property with every piece in "parcels".',
		name: 'parcelsNotice',
		type: 'notice',
		default: '',
	},
	...chargeProperties(show, 'the parcel shapes'),
]);

export const keepsInputKeys = true;

// One item per property, every piece in `parcels`.
export const execute = chargedRead({
	kind: 'propertyDetail',
	read: byPropId(paths.propertyParcels),
	bought: (response, note, extra) => {
		const parcels = response.results ?? [];
		return [{ ...extra, pieceCount: parcels.length, parcels, _charge: note }];
	},
});
