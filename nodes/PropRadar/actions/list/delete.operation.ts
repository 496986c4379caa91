import { paths } from '../../transport';
import { listLocator, readListId } from '../../shared/parameters';
import { deleteRecord } from '../shapes';

const show = { resource: ['list'], operation: ['delete'] };

export const description = [listLocator(show)];

export const execute = deleteRecord((context, itemIndex) => {
	const listId = readListId(context, itemIndex);
	return { path: paths.list(listId), ids: { ListID: listId } };
});
