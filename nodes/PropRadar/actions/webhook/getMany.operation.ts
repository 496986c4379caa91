import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { collectPages, paths } from '../../transport';
import { fieldsPicker } from '../../shared/fieldsets';
import { PAGE_LIMITS } from '../../shared/vocabulary';
import {
	propertyNamed,
	readFields,
	readFlag,
	readLimit,
	readSort,
	returnAllProperties,
	sortProperty,
} from '../../shared/parameters';

const show = { resource: ['webhook'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	...returnAllProperties(show),
	{
		displayName: 'Include Secrets',
		name: 'includeSecret',
		type: 'boolean',
		default: false,
		description:
			"Whether to include each webhook's secret in the output. Off by default, so secrets do not end up in execution logs.",
		displayOptions: { show },
	},
	sortProperty(show, ['WebhookID', 'WebhookName', 'HookUrl']),
	fieldsPicker('webhook', { show }),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const includeSecret = readFlag(this, itemIndex, 'includeSecret', 'Include Secrets');
	const { records } = await collectPages(
		this,
		{
			method: 'GET',
			path: paths.webhooks(),
			qs: {
				Fields: readFields(this, itemIndex, 'webhook'),
				...readSort(this, itemIndex, propertyNamed(description, 'sort')),
			},
			itemIndex,
		},
		{
			pageSize: PAGE_LIMITS.webhooks.defaultLimit,
			limit: readLimit(this, itemIndex),
			untilEmpty: true,
		},
	);
	if (includeSecret) return records;
	return records.map(({ Secret, ...hook }) => {
		void Secret;
		return hook;
	});
}
