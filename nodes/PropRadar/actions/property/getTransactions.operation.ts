import { paths } from '../../transport';
import { chargeProperties } from '../../money';
import { fieldsPicker } from '../../shared/fieldsets';
import { MAX_TRANSACTION_FIELD_IDS, transactionCustomFieldIds } from '../../shared/vocabulary';
import { fail, parameter, propIdProperty, readFields } from '../../shared/parameters';
import { byPropId, chargedRead, shownFor } from '../shapes';

const show = { resource: ['property'], operation: ['getTransactions'] };

export const description = shownFor(show, [
	propIdProperty(show),
	fieldsPicker('transaction', { show }, 'The default is the Standard fieldset.'),
	{
		displayName: 'Custom Field IDs',
		name: 'customFieldIds',
		type: 'string',
		default: '',
		placeholder: '101, 102, 215',
		description: `IDs of custom transaction fields, comma-separated: at most ${MAX_TRANSACTION_FIELD_IDS} with the names in Fields > Unlisted Fields`,
	},
	...chargeProperties(show, 'the transaction history'),
]);

export const keepsInputKeys = true;

// The Fields and the custom field IDs, checked and sent as one Fields value.
export const execute = chargedRead({
	kind: 'propertyDetail',
	read: byPropId(paths.propertyTransactions, (context, itemIndex) => {
		const customIds = String(parameter(context, 'customFieldIds', itemIndex, '') ?? '')
			.split(',')
			.map((id) => id.trim())
			.filter(Boolean);
		const bad = customIds.find((id) => !/^[A-Za-z0-9_]+$/.test(id));
		if (bad)
			fail(
				context,
				itemIndex,
				`Custom Field IDs: "${bad}" is not a field ID`,
				'A field ID holds letters, digits and _ only.',
			);
		const names = [readFields(context, itemIndex, 'transaction'), ...customIds]
			.filter(Boolean)
			.join(',');
		// Names typed in Unlisted Fields are field IDs to the service too: the limit counts them all.
		const counted = transactionCustomFieldIds(names.split(',').filter(Boolean));
		if (counted.length > MAX_TRANSACTION_FIELD_IDS)
			fail(
				context,
				itemIndex,
				`Too many custom field IDs: ${counted.length}, at most ${MAX_TRANSACTION_FIELD_IDS}`,
				'Custom Field IDs and Fields > Unlisted Fields count together.',
			);
		return { Fields: names };
	}),
});
