import { operationSelector, resourceModule } from '../descriptions';
import * as deleteMatch from './deleteMatch.operation';
import * as getMany from './getMany.operation';
import * as importOperation from './import.operation';
import * as updateMatch from './updateMatch.operation';

export const importRecord = resourceModule({
	operations: {
		deleteMatch,
		getMany,
		import: {
			description: importOperation.description,
			executeBatch: importOperation.executeBatch,
		},
		updateMatch,
	},
	selector: operationSelector('importRecord', 'import', [
		{
			name: 'Delete Match',
			value: 'deleteMatch',
			action: 'Delete the match of an imported record',
			description: 'Primary-contact changes it made are reverted',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many imported records',
			description: 'List the records of an import list, with their matches',
		},
		{
			name: 'Import',
			value: 'import',
			action: 'Import records into an import list',
			description: 'The input items, matched by PropRadar (charged per record)',
		},
		{
			name: 'Update Match',
			value: 'updateMatch',
			action: 'Correct the match of an imported record',
			description: 'Set the property or person an imported record is matched to',
		},
	]),
});
