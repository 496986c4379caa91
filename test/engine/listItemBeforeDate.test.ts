import { startEngineSandbox, type EngineSandbox } from './harness';
import { createList, listRef, run, runOk } from './helpers';

let sb: EngineSandbox;
beforeAll(async () => {
	sb = await startEngineSandbox();
});
afterAll(() => sb.close());

const year = (date: unknown) => Number(String(date).split('/')[2]);

test('List Item > Get Many: Last Transfer Date "before: M/D/YYYY" returns the properties owned since before it, and those never sold', async () => {
	const listId = await createList(sb, { listName: 'owned long', listType: 'static' });
	const propIds = Array.from({ length: 60 }, (_, i) => `P${String(i + 1).padStart(6, '0')}`);
	await runOk(sb, { resource: 'listItem', operation: 'add', listId: listRef(listId), addBy: 'propIds', propIds: propIds.join(',') });
	const fields = { include: ['PropID', 'LastTransferRecDate'] };
	const all = await runOk(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: true, fields });
	const before = await runOk(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: true, fields, filters: { LastTransferRecDate: 'before: 1/1/2010' } });
	expect(sb.sent(`/v1/lists/${listId}/items`, 'GET').at(-1)!.query.get('LastTransferRecDate')).toBe('before: 1/1/2010');

	const expected = all.filter((item) => item.LastTransferRecDate === null || year(item.LastTransferRecDate) < 2010).map((item) => item.PropID);
	expect(before.map((item) => item.PropID).sort()).toEqual(expected.sort());
	expect(before.some((item) => item.LastTransferRecDate === null)).toBe(true);
	expect(before.some((item) => item.LastTransferRecDate !== null)).toBe(true);
	expect(before.length).toBeLessThan(all.length);
});

test('List Item > Get Many: a before-date that is not M/D/YYYY is refused before anything is sent, saying what is allowed', async () => {
	const before = sb.requests.length;
	const result = await run(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(1), returnAll: true, filters: { LastTransferRecDate: 'before: 2010' } });
	expect(result.error?.message).toBe('Last Transfer Date: "before: 2010" is not a date the API takes');
	expect(result.error?.description).toContain('"before: M/D/YYYY"');
	expect(sb.requests.length).toBe(before);
});
