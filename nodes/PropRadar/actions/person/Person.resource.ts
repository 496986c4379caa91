import { operationSelector, resourceModule } from '../descriptions';
import * as getOwners from './getOwners.operation';
import * as getRecords from './getRecords.operation';
import * as purchaseEmail from './purchaseEmail.operation';
import * as purchasePhone from './purchasePhone.operation';

export const person = resourceModule({
	operations: { getOwners, getRecords, purchaseEmail, purchasePhone },
	selector: operationSelector('person', 'getOwners', {
		getOwners: ['Get the owners of a property', 'Owner records with chosen fields (charged)'],
		getRecords: [
			'Get records of a person',
			'Bankruptcies, divorces, liens, probates or relatives (charged)',
		],
		purchaseEmail: ['Purchase the email address of a person', 'Buy an e-mail address (charged)'],
		purchasePhone: ['Purchase the phone number of a person', 'Buy a phone number (charged)'],
	}),
});
