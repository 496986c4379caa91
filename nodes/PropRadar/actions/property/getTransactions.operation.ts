import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { paths } from '../../transport';
import { chargedRecords, chargeProperties, type ChargePass, type RunSpending } from '../../money';
import { fieldsPicker } from '../../shared/fieldsets';
import { MAX_TRANSACTION_FIELD_IDS, transactionCustomFieldIds } from '../../shared/vocabulary';
import { propIdProperty, readFields, readPropId } from '../../shared/parameters';

const show = { resource: ['property'], operation: ['getTransactions'] };

export const description: INodeProperties[] = [
	propIdProperty(show),
	fieldsPicker('transaction', { show }, 'The default is the Standard fieldset.'),
	{
		displayName: 'Custom Field IDs',
		name: 'customFieldIds',
		type: 'string',
		default: '',
		placeholder: '101, 102, 215',
		description: `IDs of custom transaction fields, comma-separated: at most ${MAX_TRANSACTION_FIELD_IDS} with the names in Fields > Unlisted Fields`,
		displayOptions: { show },
	},
	...chargeProperties(show, 'the transaction history'),
];

export const keepsInputKeys = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	spending: RunSpending,
	pass: ChargePass,
): Promise<IDataObject[]> {
	const propId = readPropId(this, itemIndex);
	const customIds = String(this.getNodeParameter('customFieldIds', itemIndex, '') ?? '')
		.split(',')
		.map((id) => id.trim())
		.filter(Boolean);
	const bad = customIds.find((id) => !/^[A-Za-z0-9_]+$/.test(id));
	if (bad) {
		throw new NodeOperationError(
			this.getNode(),
			`Custom Field IDs: "${bad}" is not a field ID (letters, digits and _ only)`,
			{ itemIndex },
		);
	}
	const names = [readFields(this, itemIndex, 'transaction'), ...customIds]
		.filter(Boolean)
		.join(',');
	// Names typed in Unlisted Fields are field IDs to the service too: the limit counts them all.
	const counted = transactionCustomFieldIds(names.split(',').filter(Boolean));
	if (counted.length > MAX_TRANSACTION_FIELD_IDS) {
		throw new NodeOperationError(
			this.getNode(),
			`Custom Field IDs and Fields > Unlisted Fields: ${counted.length} custom field IDs ` +
				`given, at most ${MAX_TRANSACTION_FIELD_IDS} allowed`,
			{ itemIndex },
		);
	}
	return chargedRecords(
		this,
		spending,
		itemIndex,
		pass,
		'propertyDetail',
		{ method: 'GET', path: paths.propertyTransactions(propId), qs: { Fields: names } },
		{ PropID: propId },
	);
}
