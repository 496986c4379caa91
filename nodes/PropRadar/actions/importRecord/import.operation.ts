import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { paths, readList } from '../../transport';
import { chargedBatches, chargeProperties, type RunMoney } from '../../money';
import { fieldsPicker } from '../../shared/fieldsets';
import { fieldNames, IMPORT_RECORD_FIELDS, LIST_FIELDS } from '../../shared/vocabulary';
import type { NumberedId } from '../../shared/ids';
import { listLocator, propertyNamed, readFields } from '../../shared/parameters';
import { importedItems, oneForTheImport, previewItems, readImportItems } from './importItems';
import { ownParameters, shownFor } from '../shapes';

const show = { resource: ['importRecord'], operation: ['import'] };

// Records per request, chosen by measurement (docs/design.md, actions/).
const DEFAULT_BATCH_SIZE = 500;
const MAX_BATCH_SIZE = 5000;

/** Record Fields' choice of record field, which an expression may give as any text. */
const RECORD_FIELD: INodeProperties = {
	displayName: 'Record Field',
	name: 'name',
	type: 'options',
	options: [...IMPORT_RECORD_FIELDS].sort().map((field) => ({ name: field, value: field })),
	default: 'Address',
};

export const description = shownFor(show, [
	listLocator(show, 'Import List', 'listId', 'searchImportLists'),
	{
		displayName:
			'Each input item is one record, sent as it is except ZIPs and state names put in the API\'s form (each change noted). The list must be an import list with Import Source "API"; an item with no record field is not sent or charged.',
		name: 'importNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Map Fields',
		name: 'mapping',
		type: 'options',
		options: [
			{
				name: 'Same-Named Fields',
				value: 'auto',
				description:
					'Input fields named like the record fields (Address, City, State, ZipFive, FirstName, Email ...) are sent',
			},
			{
				name: 'Map Each Field',
				value: 'manual',
				description: 'Say which value goes to which record field',
			},
		],
		default: 'auto',
	},
	{
		displayName: 'Record Fields',
		name: 'recordFields',
		type: 'fixedCollection',
		placeholder: 'Add Field',
		typeOptions: { multipleValues: true },
		default: {},
		displayOptions: { show: { ...show, mapping: ['manual'] } },
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					RECORD_FIELD,
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: '={{ $json.street }}',
					},
				],
			},
		],
	},
	...chargeProperties(show, 'the import (per imported record)'),
	fieldsPicker(
		'importItem',
		{ show },
		'What each imported item returns: its ListImportItemID and match by default',
	),
	{
		displayName: 'Options',
		name: 'importOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
				default: DEFAULT_BATCH_SIZE,
				description: 'Records sent per request',
			},
			{
				displayName: 'Send Token as X-Prop-Access-Token',
				name: 'accessTokenHeader',
				type: 'boolean',
				default: false,
				description:
					'Whether to also send the access token in the X-Prop-Access-Token header, which the import endpoint accepts',
			},
		],
	},
]);

async function assertApiImportList(context: IExecuteFunctions, listId: NumberedId): Promise<void> {
	const list = await readList(context, listId, {
		fields: fieldNames(LIST_FIELDS, 'ListID', 'ListType', 'ImportSource'),
	});
	if (list?.ListType === 'import' && list.ImportSource === 'api') return;
	throw new NodeOperationError(
		context.getNode(),
		`List ${listId} is not an import list that takes API imports`,
		{
			description: `It is ${list?.ListType === 'import' ? `an import list with Import Source "${list.ImportSource}"` : `a ${list?.ListType ?? 'list'} list`}. Create one with List > Create, List Type "Import", Import Source "API (Needed for Import Records)", and import into that. Nothing was bought or charged.`,
		},
	);
}

// Each item's record goes to the Import List that item names: one group of requests per list, all
// quoted and held before any is bought (docs/money.md, rule 6). One output item per input item.
export async function executeBatch(
	this: IExecuteFunctions,
	money: RunMoney,
): Promise<INodeExecutionData[]> {
	const itemCount = this.getInputData().length;
	// Options and Fields: one value for the whole import.
	const options = oneForTheImport(this, itemCount, ['importOptions', 'Options'], (itemIndex) =>
		ownParameters(this, itemIndex, description).collection('importOptions'),
	);
	const fields = oneForTheImport(this, itemCount, ['fields', 'Fields'], (itemIndex) =>
		readFields(this, itemIndex, 'importItem'),
	);
	const batchSize = (options.batchSize as number | undefined) ?? DEFAULT_BATCH_SIZE;
	const items = readImportItems(this, propertyNamed(description, 'mapping'), RECORD_FIELD);
	const headers: Record<string, string> = {};
	if (options.accessTokenHeader) {
		const credentials = await this.getCredentials<{ accessToken: string }>('propRadarApi');
		headers['X-Prop-Access-Token'] = credentials.accessToken;
	}
	const purchasing = await money.purchasesWhole([...Array(itemCount).keys()]);
	const result = await chargedBatches(this, money, purchasing, {
		kind: 'importRecord',
		groups: items.lists.map(({ listId, records }) => ({
			records,
			request: { method: 'POST', path: paths.importItems(listId), qs: { Fields: fields }, headers },
			// Checked while its free quote travels (both are free).
			checked: assertApiImportList(this, listId),
		})),
		batchSize,
	});
	if ('previews' in result) return previewItems(items, result.previews, batchSize);
	return importedItems(this, money, items, result.outcomes);
}
