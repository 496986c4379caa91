import { paths } from '../../transport';
import { boughtBeforeProperties, chargeProperties } from '../../money';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { propIdProperty, readFields, readPropId } from '../../shared/parameters';
import { byPropId, chargedRead, type BoughtKey } from '../shapes';

const show = { resource: ['person'], operation: ['getOwners'] };

export const description = [
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
export const boughtKey: BoughtKey = { name: 'PropID', read: readPropId };
export const outputs = 'person';

export const execute = chargedRead({
	kind: 'person',
	read: byPropId(paths.propertyPersons, (context, itemIndex) => ({
		Fields: readFields(context, itemIndex, 'person'),
	})),
});
