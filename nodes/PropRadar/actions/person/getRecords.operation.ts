import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths, type PersonRecordPathKind } from '../../transport';
import { chargedPages, chargeProperties, type ChargePass, type RunSpending } from '../../money';
import { fieldsPicker } from '../../shared/fieldsets';
import { PAGE_LIMITS, PERSON_RECORD_KINDS } from '../../shared/vocabulary';
import {
	personKeyProperty,
	propertyNamed,
	readChoice,
	readFields,
	readLimit,
	readPersonKey,
	returnAllProperties,
	vocabularyOptions,
} from '../../shared/parameters';

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
	...PERSON_RECORD_KINDS.map((kind) =>
		fieldsPicker(kind, { show: { ...show, recordKind: [kind] } }),
	),
	...chargeProperties(show, 'the records'),
];

export const keepsInputKeys = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	spending: RunSpending,
	pass: ChargePass,
): Promise<IDataObject[]> {
	const personKey = readPersonKey(this, itemIndex);
	const kind = readChoice<PersonRecordPathKind>(
		this,
		itemIndex,
		propertyNamed(description, 'recordKind'),
	);
	const request = {
		method: 'GET' as const,
		path: paths.personRecords(personKey, kind),
		qs: { Fields: readFields(this, itemIndex, kind) },
	};
	// The default page, not the largest: these pages carry no total, so a short page is the only end (docs/design.md).
	return chargedPages(
		this,
		spending,
		itemIndex,
		pass,
		request,
		{
			kind: 'personRecord',
			pageSize: PAGE_LIMITS.personRecords.defaultLimit,
			limit: readLimit(this, itemIndex),
		},
		{ PersonKey: personKey, records: kind },
	);
}
