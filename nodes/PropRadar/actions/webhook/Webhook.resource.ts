import { resourceModule } from '../descriptions';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getMany from './getMany.operation';

export const webhook = resourceModule({
	operations: { create, delete: del, getMany },
	selector: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a webhook',
				description: 'Register a URL that list exports are posted to',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a webhook',
				description: 'Delete a webhook from the account',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many webhooks',
				description: 'Retrieve the webhooks of the account',
			},
		],
		default: 'getMany',
	},
});
