import { operationSelector, resourceModule } from '../descriptions';
import * as add from './add.operation';
import * as getMany from './getMany.operation';
import * as remove from './remove.operation';

export const listItem = resourceModule({
	operations: { add, getMany, remove },
	selector: operationSelector('listItem', 'getMany', [
		{
			name: 'Add',
			value: 'add',
			action: 'Add properties to a static list',
			description: 'Add properties to a static list by PropID or by criteria',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many items of a list',
			description: 'List the properties in a list, filtered, with chosen fields',
		},
		{
			name: 'Remove',
			value: 'remove',
			action: 'Remove a property from a list',
			description: 'Take one property out of a static list',
		},
	]),
});
