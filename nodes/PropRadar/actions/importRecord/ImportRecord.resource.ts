import { operationSelector, resourceModule } from '../descriptions';
import * as deleteMatch from './deleteMatch.operation';
import * as getMany from './getMany.operation';
import * as importOperation from './import.operation';
import * as updateMatch from './updateMatch.operation';

export const importRecord = resourceModule({
	operations: { deleteMatch, getMany, import: importOperation, updateMatch },
	selector: operationSelector('importRecord', 'import', {
		deleteMatch: [
			'Delete the match of an imported record',
			'Primary-contact changes it made are reverted',
		],
		getMany: [
			'Get many imported records',
			'List the records of an import list, with their matches',
		],
		import: [
			'Import records into an import list',
			'The input items, matched by PropRadar (charged per record)',
		],
		updateMatch: [
			'Correct the match of an imported record',
			'Set the property or person an imported record is matched to',
		],
	}),
});
