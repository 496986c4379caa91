import { operationSelector, resourceModule } from '../descriptions';
import * as configure from './configure.operation';
import * as get from './get.operation';

export const automation = resourceModule({
	operations: { configure, get },
	selector: operationSelector('automation', 'get', {
		configure: [
			'Configure a list automation',
			'Update the given fields, or replace the whole configuration',
		],
		get: ['Get a list automation', 'Retrieve the automation of a list'],
	}),
});
