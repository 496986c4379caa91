/**
 * What a delete returns (n8n's UX guidelines, "Deleting operations output"): `deleted`, with the
 * IDs and PropRadar's `deleteCount` beside it. The sandbox answers a delete of nothing with 404, so
 * an answer of `{"deleteCount": 0}` (what the documents allow: "200: object with deleteCount") is
 * given at the HTTP level.
 */
import { listRef, runOk, useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();

beforeEach(() => {
	sb.faults.length = 0;
	sb.requests.length = 0;
});

const DELETES = [
	{
		name: 'List > Delete',
		parameters: { resource: 'list', operation: 'delete', listId: listRef(901) },
		ids: { ListID: 901 },
	},
	{
		name: 'List Item > Remove',
		parameters: {
			resource: 'listItem',
			operation: 'remove',
			listId: listRef(901),
			propId: 'P000102',
		},
		ids: { ListID: 901, PropID: 'P000102' },
	},
	{
		name: 'Import Record > Delete Match',
		parameters: {
			resource: 'importRecord',
			operation: 'deleteMatch',
			listId: listRef(901),
			importItemId: 7,
		},
		ids: { ListID: 901, ListImportItemID: 7 },
	},
	{
		name: 'Webhook > Delete',
		parameters: { resource: 'webhook', operation: 'delete', webhookId: 31 },
		ids: { WebhookID: 31 },
	},
];

test.each(DELETES)(
	'$name says deleted: false, with its IDs, when PropRadar answers that it deleted nothing',
	async ({ parameters, ids }) => {
		sb.faults.push({
			method: 'DELETE',
			pathPrefix: '/v1/',
			count: 1,
			status: 200,
			body: { deleteCount: 0 },
		});
		const output = await runOk(sb, parameters);
		expect(output).toEqual([{ deleted: false, ...ids, deleteCount: 0 }]);
		expect(sb.sent('/v1/', 'DELETE')).toHaveLength(1);
	},
);

test.each(DELETES)(
	'$name says deleted: true, with its IDs, when PropRadar answers that it deleted one',
	async ({ parameters, ids }) => {
		sb.faults.push({
			method: 'DELETE',
			pathPrefix: '/v1/',
			count: 1,
			status: 200,
			body: { deleteCount: 1 },
		});
		expect(await runOk(sb, parameters)).toEqual([{ deleted: true, ...ids, deleteCount: 1 }]);
	},
);
