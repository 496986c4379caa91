import { operationSelector, resourceModule } from '../descriptions';
import * as get from './get.operation';
import * as getComps from './getComps.operation';
import * as getEvictions from './getEvictions.operation';
import * as getParcels from './getParcels.operation';
import * as getTransactions from './getTransactions.operation';
import * as search from './search.operation';

export const property = resourceModule({
	operations: { get, getComps, getEvictions, getParcels, getTransactions, search },
	selector: operationSelector('property', 'search', [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a property',
			description: 'One property with chosen fields (charged)',
		},
		{
			name: 'Get Comps',
			value: 'getComps',
			action: 'Get comparables of a property',
			description: 'Recent sales or for-sale listings like it (charged)',
		},
		{
			name: 'Get Evictions',
			value: 'getEvictions',
			action: 'Get evictions of a property',
			description: 'Eviction records (charged)',
		},
		{
			name: 'Get Parcels',
			value: 'getParcels',
			action: 'Get the parcel shape of a property',
			description: 'GeoJSON parcel pieces (charged)',
		},
		{
			name: 'Get Transactions',
			value: 'getTransactions',
			action: 'Get the transactions of a property',
			description: 'Transaction history (charged)',
		},
		{
			name: 'Search',
			value: 'search',
			action: 'Search properties by criteria',
			description: 'Every property matching criteria (charged)',
		},
	]),
});
