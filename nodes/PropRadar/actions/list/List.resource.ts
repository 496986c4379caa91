import { operationSelector, resourceModule } from '../descriptions';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const list = resourceModule({
	operations: { create, delete: del, get, getMany, update },
	selector: operationSelector('list', 'getMany', [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a list',
			description: 'Create a dynamic, static or import list',
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a list',
			description: 'Delete a list from the account',
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a list',
			description: 'Retrieve a list with chosen fields',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many lists',
			description: 'Retrieve the lists of the account, filtered and sorted',
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a list',
			description: 'Change the name, monitoring, import options or display order of a list',
		},
	]),
});
