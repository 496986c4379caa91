import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { pageThrough, paths, type PersonRecordPathKind } from '../../transport';
import { chargedRequest, chargeProperties, quoteRecord } from '../../shared/charges';
import { fieldsPicker, PERSON_RECORD_KINDS } from '../../shared/fieldsets';
import { personKeyProperty, readFields, readLimit, readRequiredString, returnAllProperties } from '../../shared/parameters';
import type { RunState } from '../types';

const show = { resource: ['person'], operation: ['getRecords'] };
const PAGE_SIZE = 100;

export const description: INodeProperties[] = [
	personKeyProperty(show),
	{
		displayName: 'Records',
		name: 'recordKind',
		type: 'options',
		options: [
			{ name: 'Bankruptcies', value: 'bankruptcies' },
			{ name: 'Divorces', value: 'divorces' },
			{ name: 'Liens', value: 'liens' },
			{ name: 'Probates', value: 'probates' },
			{ name: 'Relatives', value: 'relatives' },
		],
		default: 'bankruptcies',
		displayOptions: { show },
	},
	...returnAllProperties(show),
	...PERSON_RECORD_KINDS.map((kind) => fieldsPicker(kind, { show: { ...show, recordKind: [kind] } })),
	...chargeProperties(show, 'the records'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunState): Promise<IDataObject[]> {
	const personKey = readRequiredString(this, itemIndex, 'personKey', 'Person Key');
	const kind = this.getNodeParameter('recordKind', itemIndex) as PersonRecordPathKind;
	const request = { method: 'GET' as const, path: paths.personRecords(personKey, kind), qs: { Fields: readFields(this, itemIndex, kind) } };
	const limit = readLimit(this, itemIndex);
	if (this.getNodeParameter('chargeMode', itemIndex) === 'preview') {
		const { response } = await chargedRequest(this, run.budget, itemIndex, { ...request, qs: { ...request.qs, Start: 0, Limit: Math.min(limit ?? PAGE_SIZE, PAGE_SIZE) } });
		return [quoteRecord(response, { PersonKey: personKey, records: kind })];
	}
	const { records } = await pageThrough<IDataObject>(async (start, pageLimit) => {
		const { response } = await chargedRequest(this, run.budget, itemIndex, { ...request, qs: { ...request.qs, Start: start, Limit: pageLimit } });
		return response;
	}, { pageSize: PAGE_SIZE, limit });
	return records;
}
