import { paths, type PersonRecordPathKind } from '../../transport';
import { chargeProperties } from '../../money';
import { fieldsPicker } from '../../shared/fieldsets';
import { PAGE_LIMITS, PERSON_RECORD_KINDS } from '../../shared/vocabulary';
import {
	personKeyProperty,
	readFields,
	readPersonKey,
	returnAllProperties,
	vocabularyOptions,
} from '../../shared/parameters';
import { chargedPagedRead, ownParameters, shownFor } from '../shapes';

const show = { resource: ['person'], operation: ['getRecords'] };

export const description = shownFor(show, [
	personKeyProperty(show),
	{
		displayName: 'Records',
		name: 'recordKind',
		type: 'options',
		options: vocabularyOptions(PERSON_RECORD_KINDS),
		default: 'bankruptcies',
	},
	...returnAllProperties(show),
	...PERSON_RECORD_KINDS.map((kind) =>
		fieldsPicker(kind, { show: { ...show, recordKind: [kind] } }),
	),
	...chargeProperties(show, 'the records'),
]);

export const keepsInputKeys = true;

export const execute = chargedPagedRead({
	kind: 'personRecord',
	// The default page, not the largest: these pages carry no total, so a short page is the only end (docs/design.md).
	pageSize: PAGE_LIMITS.personRecords.defaultLimit,
	read: (context, itemIndex) => {
		const personKey = readPersonKey(context, itemIndex);
		const own = ownParameters(context, itemIndex, description);
		const kind = own.choice<PersonRecordPathKind>('recordKind');
		return {
			request: {
				method: 'GET',
				path: paths.personRecords(personKey, kind),
				qs: { Fields: readFields(context, itemIndex, kind) },
			},
			extra: { PersonKey: personKey, records: kind },
		};
	},
});
