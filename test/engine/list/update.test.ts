import { api, listRef, runOk, useEngineSandbox } from '../../support/helpers';

/**
 * List > Update changes one import contact option and keeps the other, whether the service merges
 * `ImportContactOptions` or replaces it (the documents do not say; the sandbox replaces it): the
 * node reads the list's options and sends the whole object.
 */
const sb = useEngineSandbox();

const optionsOf = async (listId: number) =>
	(
		await api<{ results: Array<{ ImportContactOptions: unknown }> }>(
			sb,
			'GET',
			`/v1/lists/${listId}`,
		)
	).body.results[0].ImportContactOptions;

test('changing one contact option keeps the other as it was', async () => {
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: 'Contacts',
		ListType: 'import',
		ImportSource: 'api',
		ImportContactOptions: { add_as_primary_contact: true, set_as_primary_contact: false },
	});
	const listId = created.body.results[0].ListID;

	const [updated] = await runOk(sb, {
		resource: 'list',
		operation: 'update',
		listId: listRef(listId),
		updateFields: { set_as_primary_contact: true },
	});
	expect(updated).toMatchObject({ ListID: listId, updateCount: 1 });
	expect(JSON.parse(sb.sent(`/v1/lists/${listId}`, 'PATCH').at(-1)!.body)).toEqual({
		ImportContactOptions: { add_as_primary_contact: true, set_as_primary_contact: true },
	});
	expect(await optionsOf(listId)).toEqual({
		add_as_primary_contact: true,
		set_as_primary_contact: true,
	});

	await runOk(sb, {
		resource: 'list',
		operation: 'update',
		listId: listRef(listId),
		updateFields: { add_as_primary_contact: false, ListName: 'Contacts 2' },
	});
	expect(await optionsOf(listId)).toEqual({
		add_as_primary_contact: false,
		set_as_primary_contact: true,
	});
});

test('an update without contact options does not read the list first', async () => {
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: 'Plain',
		ListType: 'static',
	});
	const listId = created.body.results[0].ListID;
	const before = sb.requests.length;
	await runOk(sb, {
		resource: 'list',
		operation: 'update',
		listId: listRef(listId),
		updateFields: { ListName: 'Plain 2' },
	});
	expect(sb.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
		`PATCH /v1/lists/${listId}`,
	]);
});
