import { operationSelector, resourceModule } from '../descriptions';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getMany from './getMany.operation';

export const webhook = resourceModule({
	operations: { create, delete: del, getMany },
	selector: operationSelector('webhook', 'getMany', {
		create: ['Create a webhook', 'Register a URL that list exports are posted to'],
		delete: ['Delete a webhook', 'Delete a webhook from the account'],
		getMany: ['Get many webhooks', 'Retrieve the webhooks of the account'],
	}),
});
