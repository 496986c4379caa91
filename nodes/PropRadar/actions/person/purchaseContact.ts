import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { paths, toNodeError } from '../../transport';
import { chargedRequest, chargeProperties, quoteRecord } from '../../shared/charges';
import { personKeyProperty, readRequiredString } from '../../shared/parameters';
import type { OperationModule, RunState } from '../types';

/** Purchase Phone and Purchase Email: the same operation on two endpoints. */
export function purchaseContactOperation(operation: 'purchasePhone' | 'purchaseEmail'): OperationModule {
	const what = operation === 'purchasePhone' ? 'Phone' : 'Email';
	const show = { resource: ['person'], operation: [operation] };
	const description: INodeProperties[] = [
		personKeyProperty(show),
		...chargeProperties(show, `the person's ${what === 'Phone' ? 'phone number' : 'e-mail address'}`),
	];
	async function execute(this: IExecuteFunctions, itemIndex: number, run: RunState): Promise<IDataObject[]> {
		const personKey = readRequiredString(this, itemIndex, 'personKey', 'Person Key');
		const path = what === 'Phone' ? paths.personPhone(personKey) : paths.personEmail(personKey);
		try {
			const { mode, response } = await chargedRequest(this, run.budget, itemIndex, { method: 'POST', path });
			if (mode === 'preview') return [quoteRecord(response, { PersonKey: personKey, purchase: what })];
			return (response.results ?? []).map((record) => ({ ...record, purchased: true, totalCost: response.totalCost }));
		} catch (error) {
			const text = error instanceof NodeApiError ? `${error.message} ${error.description ?? ''}` : '';
			if (error instanceof NodeApiError && error.httpCode === '400' && /already purchased/i.test(text)) {
				return [{
					PersonKey: personKey,
					purchased: false,
					alreadyPurchased: true,
					message: `The ${what === 'Phone' ? 'phone number' : 'e-mail address'} of ${personKey} was already purchased: nothing was charged. Read it with Person > Get Owners.`,
				}];
			}
			throw toNodeError(this.getNode(), error, itemIndex);
		}
	}
	return { description, execute };
}
