import type { IDataObject } from 'n8n-workflow';

import {
	addToList,
	api,
	createList,
	listRef,
	run,
	runOk,
	useEngineSandbox,
} from '../../support/helpers';

const sb = useEngineSandbox();

describe('List Item', () => {
	test('add by criteria, then Return All pages through at 1000 (the largest page the endpoint takes) and Limit stops early', async () => {
		const listId = await createList(sb, { listName: 'Static from criteria', listType: 'static' });
		const [added] = await runOk(sb, {
			resource: 'listItem',
			operation: 'add',
			listId: listRef(listId),
			addBy: 'criteria',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR"]}]',
		});
		const count = Number(added.updateCount);
		expect(count).toBeGreaterThan(1000);

		const before = sb.sent(`/v1/lists/${listId}/items`, 'GET').length;
		const all = await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
		});
		expect(all).toHaveLength(count);
		// The list's count gives every page, each asked for whole; none past the last.
		expect(sb.sent(`/v1/lists/${listId}/items`, 'GET').length - before).toBe(
			Math.ceil(count / 1000),
		);
		expect(
			sb
				.sent(`/v1/lists/${listId}/items`, 'GET')
				.slice(before)
				.every((request) => request.query.get('Limit') === '1000'),
		).toBe(true);

		const limited = await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: false,
			limit: 7,
		});
		expect(limited).toHaveLength(7);
		expect(sb.sent(`/v1/lists/${listId}/items`, 'GET').at(-1)!.query.get('Limit')).toBe('7');
	});

	test("Return All where the service gives a page shorter than asked for though more follow (a page cap below 1000): the list's TotalCount shows it, and paging goes on from there", async () => {
		const listId = await createList(sb, { listName: 'Capped pages', listType: 'static' });
		const propIds = Array.from({ length: 30 }, (_, i) => `P${String(201 + i).padStart(6, '0')}`);
		await addToList(sb, listId, propIds.join(','));
		const firstTen = await api<{ results: IDataObject[] }>(
			sb,
			'GET',
			`/v1/lists/${listId}/items?Start=0&Limit=10`,
		);
		// A service that answers at most 10 a page, whatever Limit asks for: the first page as it would give it.
		sb.faults.push({
			method: 'GET',
			pathPrefix: `/v1/lists/${listId}/items`,
			count: 1,
			status: 200,
			body: { results: firstTen.body.results },
		});
		const all = await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
		});
		expect(all.map((item) => item.PropID)).toEqual([
			...firstTen.body.results.map((item) => item.PropID),
			...(
				await api<{ results: IDataObject[] }>(
					sb,
					'GET',
					`/v1/lists/${listId}/items?Start=10&Limit=1000`,
				)
			).body.results.map((item) => item.PropID),
		]);
		expect(all).toHaveLength(30);
		expect(new Set(all.map((item) => item.PropID))).toEqual(new Set(propIds));
	});

	test('Return All of a whole list reads its TotalCount beside the first page, and no page more when they agree; a filtered read does not', async () => {
		const listId = await createList(sb, { listName: 'Counted pages', listType: 'static' });
		await addToList(sb, listId, 'P000301,P000302,P000303');
		const before = sb.requests.length;
		expect(
			await runOk(sb, {
				resource: 'listItem',
				operation: 'getMany',
				listId: listRef(listId),
				returnAll: true,
			}),
		).toHaveLength(3);
		expect(
			sb.requests
				.slice(before)
				.map((request) => request.path)
				.sort(),
		).toEqual([`/v1/lists/${listId}`, `/v1/lists/${listId}/items`]);
		const filtered = sb.requests.length;
		await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
			filters: { InterestLevel: [0] },
		});
		expect(sb.requests.slice(filtered).map((request) => request.path)).toEqual([
			`/v1/lists/${listId}/items`,
		]);
	});

	test('filters reach the service in its encoding; a bad date is refused before sending', async () => {
		const listId = await createList(sb, { listName: 'Filtered', listType: 'static' });
		await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
			filters: {
				InterestLevel: [0, 3],
				hasPhotos: false,
				PType: ['SFR', 'CND'],
				LastTransferRecDate: 'Last 365 Days',
				MostRecentCall: 'None',
			},
		});
		const query = sb.sent(`/v1/lists/${listId}/items`, 'GET').at(-1)!.query;
		expect(query.get('InterestLevel')).toBe('0,3');
		expect(query.get('hasPhotos')).toBe('0');
		expect(query.get('PType')).toBe('SFR,CND');
		expect(query.get('LastTransferRecDate')).toBe('Last 365 Days');
		expect(query.get('MostRecentCall')).toBe('None');

		const before = sb.requests.length;
		const bad = await run(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
			filters: { MostRecentText: 'yesterday-ish' },
		});
		expect(bad.error?.message).toBe('MostRecentText: "yesterday-ish" is not a date the API takes');
		expect(sb.requests.length).toBe(before);
	});
});
