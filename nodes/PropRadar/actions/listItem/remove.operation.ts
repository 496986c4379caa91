import { paths } from '../../transport';
import { listLocator, propIdProperty, readListId, readPropId } from '../../shared/parameters';
import { deleteRecord } from '../shapes';

const show = { resource: ['listItem'], operation: ['remove'] };

export const description = [listLocator(show), propIdProperty(show)];

export const execute = deleteRecord((context, itemIndex) => {
	const listId = readListId(context, itemIndex);
	const propId = readPropId(context, itemIndex);
	return { path: paths.listItem(listId, propId), ids: { ListID: listId, PropID: propId } };
});
