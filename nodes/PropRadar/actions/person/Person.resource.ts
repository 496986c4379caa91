import { operationSelector, resourceModule } from '../descriptions';
import * as getOwners from './getOwners.operation';
import * as getRecords from './getRecords.operation';
import * as purchaseEmail from './purchaseEmail.operation';
import * as purchasePhone from './purchasePhone.operation';

export const person = resourceModule({
	operations: { getOwners, getRecords, purchaseEmail, purchasePhone },
	selector: operationSelector('person', 'getOwners', [
		{
			name: 'Get Owners',
			value: 'getOwners',
			action: 'Get the owners of a property',
			description: 'Owner records with chosen fields (charged)',
		},
		{
			name: 'Get Records',
			value: 'getRecords',
			action: 'Get records of a person',
			description: 'Bankruptcies, divorces, liens, probates or relatives (charged)',
		},
		{
			name: 'Purchase Email',
			value: 'purchaseEmail',
			action: 'Purchase the email address of a person',
			description: 'Buy an e-mail address (charged)',
		},
		{
			name: 'Purchase Phone',
			value: 'purchasePhone',
			action: 'Purchase the phone number of a person',
			description: 'Buy a phone number (charged)',
		},
	]),
});
