import { operationSelector, resourceModule } from '../descriptions';
import * as get from './get.operation';
import * as getComps from './getComps.operation';
import * as getEvictions from './getEvictions.operation';
import * as getParcels from './getParcels.operation';
import * as getTransactions from './getTransactions.operation';
import * as search from './search.operation';

export const property = resourceModule({
	operations: { get, getComps, getEvictions, getParcels, getTransactions, search },
	selector: operationSelector('property', 'search', {
		get: ['Get a property', 'One property with chosen fields (charged)'],
		getComps: [
			'Get comparables of a property',
			'Recent sales or for-sale listings like it (charged)',
		],
		getEvictions: ['Get evictions of a property', 'Eviction records (charged)'],
		getParcels: ['Get the parcel shape of a property', 'GeoJSON parcel pieces (charged)'],
		getTransactions: ['Get the transactions of a property', 'Transaction history (charged)'],
		search: ['Search properties by criteria', 'Every property matching criteria (charged)'],
	}),
});
