import { operationSelector, resourceModule } from '../descriptions';
import * as getMembers from './getMembers.operation';
import * as getStatusLabels from './getStatusLabels.operation';

export const account = resourceModule({
	operations: {
		getMembers,
		getStatusLabels,
	},
	selector: operationSelector('account', 'getMembers', [
		{
			name: 'Get Members',
			value: 'getMembers',
			action: 'Get the members of the account',
			description: 'Members with the MemberKey that automations use',
		},
		{
			name: 'Get Status Level Labels',
			value: 'getStatusLabels',
			action: 'Get the status level labels',
			description: "The account's labels of status levels 1 to 9",
		},
	]),
});
