import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths, type PersonRecordPathKind } from '../../transport';
import { chargedPages, chargeProperties, type RunSpending } from '../../money';
import { fieldsPicker } from '../../shared/fieldsets';
import { PAGE_LIMITS, PERSON_RECORD_KINDS } from '../../shared/vocabulary';
import { personKeyProperty, propertyNamed, readChoice, readFields, readLimit, readPersonKey, returnAllProperties, vocabularyOptions } from '../../shared/parameters';

const show = { resource: ['person'], operation: ['getRecords'] };

export const description: INodeProperties[] = [
	personKeyProperty(show),
	{
		displayName: 'Records',
		name: 'recordKind',
		type: 'options',
		options: vocabularyOptions(PERSON_RECORD_KINDS),
		default: 'bankruptcies',
		displayOptions: { show },
	},
	...returnAllProperties(show),
	...PERSON_RECORD_KINDS.map((kind) => fieldsPicker(kind, { show: { ...show, recordKind: [kind] } })),
	...chargeProperties(show, 'the records'),
];

/**
 * Pages of 100, the sandbox's default: these pages carry no total, and the documents give neither
 * a default nor a largest page, so a page shorter than asked for is the only end there is; asking
 * for the most the sandbox takes (500) would end a read early, without a word, against a service
 * that gives fewer a page. Property > Search, documented at up to 500 a page with a total, asks 500.
 */
/** Its records are of the input item's property or person: they keep its PropID, PersonKey and ListID. */
export const keepsInputKeys = true;

export async function execute(this: IExecuteFunctions, itemIndex: number, spending: RunSpending): Promise<IDataObject[]> {
	const personKey = readPersonKey(this, itemIndex);
	const kind = readChoice<PersonRecordPathKind>(this, itemIndex, propertyNamed(description, 'recordKind'));
	const request = { method: 'GET' as const, path: paths.personRecords(personKey, kind), qs: { Fields: readFields(this, itemIndex, kind) } };
	return chargedPages(this, spending, itemIndex, request, { kind: 'personRecord', pageSize: PAGE_LIMITS.personRecords.defaultLimit, limit: readLimit(this, itemIndex) }, { PersonKey: personKey, records: kind });
}
