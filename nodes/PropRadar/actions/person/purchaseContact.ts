import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { paths, refusedByService, toNodeError } from '../../transport';
import { chargedRequest, chargeProperties, withCharge, type RunSpending } from '../../shared/charges';
import { personKeyProperty, readPersonKey } from '../../shared/parameters';
import type { OperationModule } from '../types';

/** Purchase Phone and Purchase Email: the same operation on two endpoints. */
export function purchaseContactOperation(operation: 'purchasePhone' | 'purchaseEmail'): OperationModule {
	const what = operation === 'purchasePhone' ? 'Phone' : 'Email';
	const show = { resource: ['person'], operation: [operation] };
	const description: INodeProperties[] = [
		personKeyProperty(show),
		...chargeProperties(show, `the person's ${what === 'Phone' ? 'phone number' : 'e-mail address'}`),
	];
	async function execute(this: IExecuteFunctions, itemIndex: number, spending: RunSpending): Promise<IDataObject[]> {
		const personKey = readPersonKey(this, itemIndex);
		const path = what === 'Phone' ? paths.personPhone(personKey) : paths.personEmail(personKey);
		try {
			const { response, preview, note } = await chargedRequest(this, spending, itemIndex, what === 'Phone' ? 'phone' : 'email', { method: 'POST', path });
			if (preview) return [{ PersonKey: personKey, purchase: what, ...preview }];
			return withCharge((response.results ?? []).map((record) => ({ ...record, purchased: true })), note!);
		} catch (error) {
			const text = error instanceof NodeApiError ? `${error.message} ${error.description ?? ''}` : '';
			if (refusedByService(error) && /already purchased/i.test(text)) {
				return [{
					PersonKey: personKey,
					purchased: false,
					alreadyPurchased: true,
					message: `The ${what === 'Phone' ? 'phone number' : 'e-mail address'} of ${personKey} was already purchased, so nothing was charged. The ${what} you own is in the ${what} field of Person > Get Owners for the person's property (Get Owners is charged per owner returned).`,
				}];
			}
			throw toNodeError(this.getNode(), error, itemIndex);
		}
	}
	return { description, execute };
}
