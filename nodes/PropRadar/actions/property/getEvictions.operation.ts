import { paths } from '../../transport';
import { chargeProperties } from '../../money';
import { propIdProperty } from '../../shared/parameters';
import { byPropId, chargedRead } from '../shapes';

const show = { resource: ['property'], operation: ['getEvictions'] };

export const description = [
	propIdProperty(show),
	...chargeProperties(show, 'the eviction records'),
];

export const keepsInputKeys = true;

export const execute = chargedRead({
	kind: 'propertyDetail',
	read: byPropId(paths.propertyEvictions),
});
