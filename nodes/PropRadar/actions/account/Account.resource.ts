import { operationSelector, resourceModule } from '../descriptions';
import * as getMembers from './getMembers.operation';
import * as getStatusLabels from './getStatusLabels.operation';

export const account = resourceModule({
	operations: { getMembers, getStatusLabels },
	selector: operationSelector('account', 'getMembers', {
		getMembers: [
			'Get the members of the account',
			'Members with the MemberKey that automations use',
		],
		getStatusLabels: [
			'Get the status level labels',
			"The account's labels of status levels 1 to 9",
			'Get Status Level Labels',
		],
	}),
});
