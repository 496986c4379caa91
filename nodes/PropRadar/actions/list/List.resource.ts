import { operationSelector, resourceModule } from '../descriptions';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const list = resourceModule({
	operations: { create, delete: del, get, getMany, update },
	selector: operationSelector('list', 'getMany', {
		create: ['Create a list', 'Create a dynamic, static or import list'],
		delete: ['Delete a list', 'Delete a list from the account'],
		get: ['Get a list', 'Retrieve a list with chosen fields'],
		getMany: ['Get many lists', 'Retrieve the lists of the account, filtered and sorted'],
		update: [
			'Update a list',
			'Change the name, monitoring, import options or display order of a list',
		],
	}),
});
