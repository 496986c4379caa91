import { operationSelector, resourceModule } from '../descriptions';
import * as add from './add.operation';
import * as getMany from './getMany.operation';
import * as remove from './remove.operation';

export const listItem = resourceModule({
	operations: { add, getMany, remove },
	selector: operationSelector('listItem', 'getMany', {
		add: [
			'Add properties to a static list',
			'Add properties to a static list by PropID or by criteria',
		],
		getMany: [
			'Get many items of a list',
			'List the properties in a list, filtered, with chosen fields',
		],
		remove: ['Remove a property from a list', 'Take one property out of a static list'],
	}),
});
