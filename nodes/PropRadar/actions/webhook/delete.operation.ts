import { paths } from '../../transport';
import { readPositiveInteger } from '../../shared/parameters';
import { deleteRecord, shownFor } from '../shapes';

const show = { resource: ['webhook'], operation: ['delete'] };

export const description = shownFor(show, [
	{
		displayName: 'Webhook ID',
		name: 'webhookId',
		type: 'number',
		required: true,
		default: 0,
		description:
			'The WebhookID. The API documents do not say whether PropRadar also takes it out of the list automations that export to it: Automation > Get shows them.',
	},
]);

export const execute = deleteRecord((context, itemIndex) => {
	const webhookId = readPositiveInteger(context, itemIndex, 'webhookId', 'Webhook ID');
	return { path: paths.webhook(webhookId), ids: { WebhookID: webhookId } };
});
