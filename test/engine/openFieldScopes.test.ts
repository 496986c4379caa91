import type { IDataObject } from 'n8n-workflow';

import {
	createImportList,
	importInto,
	listRef,
	run,
	sandboxCharges,
	useEngineSandbox,
} from '../support/helpers';

/**
 * The documents leave the fields of lists, list items, import items and webhooks open ("not
 * shown"): a field-shaped name the node's vocabulary does not have is sent as given, in any part
 * of the Fields picker, and the service takes or refuses it (docs/api.md). The sandbox has no such
 * field, so each of these ends in its 400, shown in its own words; nothing is charged.
 */
const sb = useEngineSandbox();

const READS: Array<[string, IDataObject]> = [
	['List > Get', { resource: 'list', operation: 'get' }],
	['List > Get Many', { resource: 'list', operation: 'getMany', returnAll: true }],
	['List Item > Get Many', { resource: 'listItem', operation: 'getMany', returnAll: true }],
	['Import Record > Get Many', { resource: 'importRecord', operation: 'getMany', returnAll: true }],
	['Webhook > Get Many', { resource: 'webhook', operation: 'getMany', returnAll: true }],
];

test.each(READS)('%s sends an unlisted field as given', async (_, parameters) => {
	const listId = await createImportList(sb, 'Open scopes');
	const before = sb.requests.length;
	const result = await run(sb, {
		...parameters,
		listId: listRef(listId),
		fields: { other: 'OwnerNickname, -Colour' },
	});
	// Get Many of list items and import items also reads the list's count, with Fields of its own.
	const fields = sb.requests.slice(before).map((request) => request.query.get('Fields'));
	expect(fields.filter((value) => value === 'OwnerNickname,-Colour')).toHaveLength(1);
	expect(result.error?.httpCode).toBe('400');
	expect(result.error?.description).toContain('OwnerNickname');
});

test('Import Record > Import: an unlisted import-item field goes with the free quote; refused there, nothing is charged', async () => {
	const listId = await createImportList(sb, 'Open import');
	const before = await sandboxCharges(sb);
	const result = await run(
		sb,
		importInto(listId, { chargeMode: 'purchase', maxCost: 1, fields: { include: ['Owner'] } }),
		[{ Address: '1 Elm St', City: 'Portland', State: 'OR' }],
	);
	const posts = sb.sent(`/v1/lists/${listId}/import/items`, 'POST');
	expect(posts.map((r) => [r.query.get('Purchase'), r.query.get('Fields')])).toEqual([
		['0', 'Owner'],
	]);
	expect(result.error?.httpCode).toBe('400');
	expect(await sandboxCharges(sb)).toEqual(before);
});
