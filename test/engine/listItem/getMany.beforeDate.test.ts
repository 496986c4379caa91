import {
	addToList,
	createList,
	listRef,
	run,
	runOk,
	useEngineSandbox,
} from '../../support/helpers';

const sb = useEngineSandbox();

const year = (date: unknown) => Number(String(date).split('/')[2]);

test('List Item > Get Many: Last Transfer Date "from: to: M/D/YYYY" (the service\'s before-date) returns the properties owned since it or before, and those never sold', async () => {
	const listId = await createList(sb, { listName: 'owned long', listType: 'static' });
	const propIds = Array.from({ length: 60 }, (_, i) => `P${String(i + 1).padStart(6, '0')}`);
	await addToList(sb, listId, propIds.join(','));
	const fields = { include: ['PropID', 'LastTransferRecDate'] };
	const all = await runOk(sb, {
		resource: 'listItem',
		operation: 'getMany',
		listId: listRef(listId),
		returnAll: true,
		fields,
	});
	const before = await runOk(sb, {
		resource: 'listItem',
		operation: 'getMany',
		listId: listRef(listId),
		returnAll: true,
		fields,
		filters: { LastTransferRecDate: 'from: to: 12/31/2009' },
	});
	expect(sb.sent(`/v1/lists/${listId}/items`, 'GET').at(-1)!.query.get('LastTransferRecDate')).toBe(
		'from: to: 12/31/2009',
	);

	const expected = all
		.filter((item) => item.LastTransferRecDate === null || year(item.LastTransferRecDate) < 2010)
		.map((item) => item.PropID);
	expect(before.map((item) => item.PropID).sort()).toEqual(expected.sort());
	expect(before.some((item) => item.LastTransferRecDate === null)).toBe(true);
	expect(before.some((item) => item.LastTransferRecDate !== null)).toBe(true);
	expect(before.length).toBeLessThan(all.length);

	// An open end the other way: from a date on, without the properties never sold.
	const since = await runOk(sb, {
		resource: 'listItem',
		operation: 'getMany',
		listId: listRef(listId),
		returnAll: true,
		fields,
		filters: { LastTransferRecDate: 'from: 1/1/2010 to:' },
	});
	expect(since.map((item) => item.PropID).sort()).toEqual(
		all
			.filter((item) => item.LastTransferRecDate !== null && year(item.LastTransferRecDate) >= 2010)
			.map((item) => item.PropID)
			.sort(),
	);
});

test.each(['before: 1/1/2010', 'from: to: 2010', 'from: to:'])(
	'List Item > Get Many: a Last Transfer Date of "%s" is refused before anything is sent, saying what is allowed',
	async (value) => {
		const before = sb.requests.length;
		const result = await run(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(1),
			returnAll: true,
			filters: { LastTransferRecDate: value },
		});
		expect(result.error?.message).toBe(
			`Last Transfer Date: "${value}" is not a date the API takes`,
		);
		expect(result.error?.description).toContain('"from: to: M/D/YYYY" for that date or before');
		expect(sb.requests.length).toBe(before);
	},
);
