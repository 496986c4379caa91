import { resourceModule } from '../descriptions';
import * as configure from './configure.operation';
import * as get from './get.operation';

export const automation = resourceModule({
	operations: { configure, get },
	selector: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['automation'] } },
		options: [
			{
				name: 'Configure',
				value: 'configure',
				action: 'Configure a list automation',
				description: 'Update the given fields, or replace the whole configuration',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a list automation',
				description: 'Retrieve the automation of a list',
			},
		],
		default: 'get',
	},
});
