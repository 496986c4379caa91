import { paths } from '../../transport';
import { listLocator, readListId, readPositiveInteger } from '../../shared/parameters';
import { deleteRecord } from '../shapes';
import { importItemIdProperty } from './updateMatch.operation';

const show = { resource: ['importRecord'], operation: ['deleteMatch'] };

export const description = [
	listLocator(show, 'Import List', 'listId', 'searchImportLists'),
	importItemIdProperty(show),
];

export const execute = deleteRecord((context, itemIndex) => {
	const listId = readListId(context, itemIndex, 'listId', 'Import List');
	const itemId = readPositiveInteger(context, itemIndex, 'importItemId', 'Import Item ID');
	return {
		path: paths.importItem(listId, itemId),
		ids: { ListID: listId, ListImportItemID: itemId },
	};
});
