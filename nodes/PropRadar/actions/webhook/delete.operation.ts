import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';
import { deletedRecord } from '../deleted';
import { readPositiveInteger } from '../../shared/parameters';

const show = { resource: ['webhook'], operation: ['delete'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Webhook ID',
		name: 'webhookId',
		type: 'number',
		required: true,
		default: 0,
		description:
			'The WebhookID. The API documents do not say whether PropRadar also takes it out of the list automations that export to it: Automation > Get shows them.',
		displayOptions: { show },
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const webhookId = readPositiveInteger(this, itemIndex, 'webhookId', 'Webhook ID');
	const response = await apiRequest(this, {
		method: 'DELETE',
		path: paths.webhook(webhookId),
		itemIndex,
	});
	return [deletedRecord({ WebhookID: webhookId }, response)];
}
