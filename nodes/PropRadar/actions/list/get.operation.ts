import { paths } from '../../transport';
import { fieldsPicker, outputProperties } from '../../shared/fieldsets';
import { listLocator, readFields, readListId } from '../../shared/parameters';
import { freeRequest } from '../shapes';

const show = { resource: ['list'], operation: ['get'] };

export const description = [
	listLocator(show),
	fieldsPicker('list', { show }),
	...outputProperties('list', show, false),
];

export const outputs = 'list';

export const execute = freeRequest((context, itemIndex) => {
	const listId = readListId(context, itemIndex);
	const Fields = readFields(context, itemIndex, 'list');
	return { method: 'GET', path: paths.list(listId), qs: { Fields } };
});
