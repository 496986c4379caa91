import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, paths, type ApiEnvelope, type ListRecord } from '../../transport';
import { chargedBatches, chargeProperties, type RunSpending } from '../../shared/charges';
import { IMPORT_RECORD_FIELDS } from '../../shared/fieldsets';
import { listLocator, readListId } from '../../shared/parameters';

const show = { resource: ['importRecord'], operation: ['import'] };

/**
 * Records per request. Chosen from `npm run bench` (10,000 records imported with batch sizes from
 * 50 to 2,500): the time falls steeply up to about 500 records per request and only by a few
 * hundredths of a second per 10,000 records beyond, while a batch that fails (a purchase is never
 * resent) leaves at most this many records to look at.
 */
export const DEFAULT_BATCH_SIZE = 500;
export const MAX_BATCH_SIZE = 5000;

export const description: INodeProperties[] = [
	listLocator(show, 'Import List'),
	{
		displayName: 'Each input item is one record. The list must be an import list created with Import Source "API" (List > Create).',
		name: 'importNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Map Fields',
		name: 'mapping',
		type: 'options',
		options: [
			{ name: 'Same-Named Fields', value: 'auto', description: 'Input fields named like the record fields (Address, City, State, ZipFive, FirstName, Email ...) are sent' },
			{ name: 'Map Each Field', value: 'manual', description: 'Say which value goes to which record field' },
		],
		default: 'auto',
		displayOptions: { show },
	},
	{
		displayName: 'Fields',
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
					{
						displayName: 'Record Field',
						name: 'name',
						type: 'options',
						options: [...IMPORT_RECORD_FIELDS].sort().map((field) => ({ name: field, value: field })),
						default: 'Address',
					},
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
				description: 'Whether to also send the access token in the X-Prop-Access-Token header, which the import endpoint accepts',
			},
		],
	},
];

type ImportRecord = Record<string, string>;

function recordOf(context: IExecuteFunctions, item: INodeExecutionData, itemIndex: number, mapping: string): ImportRecord {
	const record: ImportRecord = {};
	const put = (name: string, value: unknown) => {
		if (value === undefined || value === null || value === '') return;
		if (typeof value === 'object') {
			throw new NodeOperationError(context.getNode(), `Item ${itemIndex}: ${name} must be text or a number, got an object`, { itemIndex });
		}
		record[name] = String(value).trim();
	};
	if (mapping === 'manual') {
		const rows = ((context.getNodeParameter('recordFields', itemIndex, {}) as IDataObject).field as Array<{ name: string; value: unknown }> | undefined) ?? [];
		for (const row of rows) put(row.name, row.value);
	} else {
		const byLowerName = new Map(IMPORT_RECORD_FIELDS.map((field) => [field.toLowerCase(), field]));
		for (const [key, value] of Object.entries(item.json)) {
			const field = byLowerName.get(key.toLowerCase());
			if (field) put(field, value);
		}
	}
	if (Object.keys(record).length === 0) {
		throw new NodeOperationError(context.getNode(), `Item ${itemIndex}: no record fields to import`, {
			itemIndex,
			description: `Give at least one of ${IMPORT_RECORD_FIELDS.join(', ')}, by input fields of those names or with Map Each Field.`,
		});
	}
	if (record.ZipFive !== undefined && !/^\d{5}$/.test(record.ZipFive)) {
		throw new NodeOperationError(context.getNode(), `Item ${itemIndex}: ZipFive must be five digits, got "${record.ZipFive}"`, { itemIndex });
	}
	if (record.State !== undefined && !/^[A-Za-z]{2}$/.test(record.State)) {
		throw new NodeOperationError(context.getNode(), `Item ${itemIndex}: State must be a two-letter code such as OR, got "${record.State}"`, { itemIndex });
	}
	if (record.Email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(record.Email)) {
		throw new NodeOperationError(context.getNode(), `Item ${itemIndex}: Email "${record.Email}" is not an e-mail address`, { itemIndex });
	}
	return record;
}

/**
 * Imports all input items at once: checks every record and the list, then hands the records to
 * `chargedBatches` (one free quote of all of them, the cap checked at full price, each batch sent
 * once). One output item per record, paired to its input item; a record that was not imported
 * becomes an error item saying why and what happened to the money.
 */
export async function executeBatch(this: IExecuteFunctions, spending: RunSpending): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const listId = readListId(this, 0, 'listId', 'Import List');
	const mapping = this.getNodeParameter('mapping', 0) as string;
	const options = this.getNodeParameter('importOptions', 0, {}) as { batchSize?: number; accessTokenHeader?: boolean };
	const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
	if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
		throw new NodeOperationError(this.getNode(), `Batch Size: must be a whole number from 1 to ${MAX_BATCH_SIZE}, got ${batchSize}`);
	}
	const records = items.map((item, itemIndex) => recordOf(this, item, itemIndex, mapping));

	const list = (await apiRequest<{ results?: ListRecord[] }>(this, { method: 'GET', path: paths.list(listId), qs: { Fields: 'ListID,ListType,ImportSource' } })).results?.[0];
	if (list?.ListType !== 'import' || list.ImportSource !== 'api') {
		throw new NodeOperationError(this.getNode(), `List ${listId} is not an import list that takes API imports`, {
			description: `It is ${list?.ListType === 'import' ? `an import list with Import Source "${list.ImportSource}"` : `a ${list?.ListType ?? 'list'} list`}. Create one with List > Create, List Type "Import", Import Source "API (Needed for Import Records)", and import into that.`,
		});
	}
	const headers: Record<string, string> = {};
	if (options.accessTokenHeader) {
		const credentials = await this.getCredentials<{ accessToken: string }>('propRadarApi');
		headers['X-Prop-Access-Token'] = credentials.accessToken;
	}
	const result = await chargedBatches(this, spending, {
		kind: 'importRecord',
		records,
		batchSize,
		send: (batch, purchase) =>
			apiRequest<ApiEnvelope>(this, {
				method: 'POST',
				path: paths.importItems(listId),
				qs: { Purchase: purchase },
				body: batch as unknown as IDataObject[],
				headers,
				repeatable: purchase === 0,
			}),
	});
	if ('preview' in result) {
		return [{ json: { ListID: listId, records: records.length, batches: Math.ceil(records.length / batchSize), ...result.preview }, pairedItem: items.map((_, item) => ({ item })) }];
	}
	const failed = result.outcomes.find((outcome) => !outcome.bought);
	if (failed && !failed.bought && spending.bought === 0 && !this.continueOnFail()) {
		const options = { message: failed.error, description: failed.description };
		throw failed.httpCode ? new NodeApiError(this.getNode(), {}, { ...options, httpCode: failed.httpCode }) : new NodeOperationError(this.getNode(), failed.error, options);
	}
	return result.outcomes.map((outcome, itemIndex) => ({
		json: outcome.bought
			? { ...outcome.result, record: records[itemIndex], _charge: outcome.note }
			: { error: outcome.error, description: outcome.description, ...(outcome.httpCode ? { httpCode: outcome.httpCode } : {}) },
		pairedItem: { item: itemIndex },
	}));
}
