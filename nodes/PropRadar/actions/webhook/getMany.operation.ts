import { paths, type ApiRequest } from '../../transport';
import { fieldsPicker } from '../../shared/fieldsets';
import { PAGE_LIMITS } from '../../shared/vocabulary';
import { readFields, readFlag, returnAllProperties, sortProperty } from '../../shared/parameters';
import { pagedRead, ownParameters, shownFor } from '../shapes';

const show = { resource: ['webhook'], operation: ['getMany'] };

export const description = shownFor(show, [
	...returnAllProperties(show),
	{
		displayName: 'Include Secrets',
		name: 'includeSecret',
		type: 'boolean',
		default: false,
		description:
			"Whether to include each webhook's secret in the output. Off by default, so secrets do not end up in execution logs.",
	},
	sortProperty(show, ['WebhookID', 'WebhookName', 'HookUrl']),
	fieldsPicker('webhook', { show }),
]);

export const execute = pagedRead({
	pageSize: PAGE_LIMITS.webhooks.defaultLimit,
	untilEmpty: true,
	read: (context, itemIndex) => {
		const includeSecret = readFlag(context, itemIndex, 'includeSecret', 'Include Secrets');
		const request: ApiRequest = {
			method: 'GET',
			path: paths.webhooks(),
			qs: {
				Fields: readFields(context, itemIndex, 'webhook'),
				...ownParameters(context, itemIndex, description).sort(),
			},
		};
		return {
			request: () => request,
			output: (records) =>
				includeSecret
					? records
					: records.map(({ Secret, ...hook }) => {
							void Secret;
							return hook;
						}),
		};
	},
});
