import { expectError, readProperty, useSandbox, type Json } from './helpers';

const sb = useSandbox();

const propIds = (from: number, count: number) =>
	Array.from({ length: count }, (_, i) => `P${String(from + i).padStart(6, '0')}`);
const byPropIds = (ids: string[]) => ({ Criteria: [{ name: 'PropID', value: ids }] });

async function itemIds(listId: number, query = ''): Promise<string[]> {
	const body = await sb.ok('GET', `/v1/lists/${listId}/items${query}`);
	return body.results.map((item: Json) => item.PropID);
}

async function getList(listId: number): Promise<Json> {
	const body = await sb.ok('GET', `/v1/lists/${listId}`);
	expect(body.results).toHaveLength(1);
	return body.results[0];
}

describe('lists: create, read, update, delete', () => {
	test('POST answers results with ListID (integer) and TotalCount (string); GET returns the list', async () => {
		const created = await sb.ok('POST', '/v1/lists', {
			body: { ListName: 'Pipeline', ListType: 'static', GroupName: 'Sales' },
		});
		expect(created).toEqual({ results: [{ ListID: expect.any(Number), TotalCount: '0' }] });
		const listId = created.results[0].ListID;
		expect(Number.isInteger(listId)).toBe(true);

		const list = await getList(listId);
		expect(list).toMatchObject({
			ListID: listId,
			ListName: 'Pipeline',
			ListType: 'static',
			isMonitored: 0,
			GroupName: 'Sales',
			TotalCount: '0',
		});
		for (const field of [
			'LastViewed',
			'NewSinceLastViewedCount',
			'MonitoringStartedOn',
			'TotalImportItems',
			'TotalProcessedImportItems',
		]) {
			expect(list).toHaveProperty(field);
		}
	});

	test('a dynamic list created from criteria holds what matches them, and its TotalCount says how many', async () => {
		const ids = propIds(200, 7);
		const created = await sb.ok('POST', '/v1/lists', {
			body: { ListName: 'Seven', ...byPropIds(ids) },
		});
		expect(created.results[0].TotalCount).toBe('7');
		const listId = created.results[0].ListID;
		expect((await getList(listId)).ListType).toBe('dynamic');
		expect(await itemIds(listId)).toEqual(ids);
	});

	test('a static list created with Criteria is filled from them once; they are not kept', async () => {
		const source = await sb.createList({ ListName: 'Source', ListType: 'static' });
		await sb.ok('PUT', `/v1/lists/${source}/items`, { body: byPropIds(propIds(300, 3)) });
		const created = await sb.ok('POST', '/v1/lists', {
			body: {
				ListName: 'Copy',
				ListType: 'static',
				Criteria: [{ name: 'InList', value: [source] }],
			},
		});
		expect(created.results[0].TotalCount).toBe('3');
		const listId = created.results[0].ListID;
		expect(await getList(listId)).toMatchObject({ ListType: 'static', TotalCount: '3' });
		expect(await itemIds(listId)).toEqual(propIds(300, 3));

		await sb.ok('PUT', `/v1/lists/${source}/items`, { body: byPropIds(['P000310']) });
		await sb.ok('DELETE', `/v1/lists/${source}/items/P000300`);
		expect(await itemIds(listId)).toEqual(propIds(300, 3));
		expect(
			await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(['P000320']) }),
		).toEqual({ updateCount: 1 });
		expect(await sb.ok('DELETE', `/v1/lists/${listId}/items/P000301`)).toEqual({ deleteCount: 1 });
		expect(await itemIds(listId)).toEqual(['P000300', 'P000302', 'P000320']);
	});

	test('a static list created with Criteria that are not valid is refused and not created', async () => {
		expectError(
			await sb.api('POST', '/v1/lists', {
				body: { ListName: 'Bad', ListType: 'static', Criteria: [{ name: 'Shoe', value: ['x'] }] },
			}),
			400,
			'Unexpected Criterion',
		);
		expect((await sb.ok('GET', '/v1/lists')).results).toEqual([]);
	});

	test('an import list keeps its import options', async () => {
		const listId = await sb.createList({
			ListName: 'Imported',
			ListType: 'import',
			ImportSource: 'api',
			ImportType: 'person',
			ImportMatchThreshold: 70,
			ImportContactOptions: { add_as_primary_contact: true, set_as_primary_contact: false },
		});
		expect(await getList(listId)).toMatchObject({
			ListType: 'import',
			ImportSource: 'api',
			ImportType: 'person',
			ImportMatchThreshold: 70,
			ImportContactOptions: { add_as_primary_contact: true, set_as_primary_contact: false },
		});
	});

	test('PATCH replaces ImportContactOptions as a whole (the documents do not say the service merges)', async () => {
		const listId = await sb.createList({
			ListName: 'Imported',
			ListType: 'import',
			ImportSource: 'api',
			ImportContactOptions: { add_as_primary_contact: true, set_as_primary_contact: false },
		});
		await sb.ok('PATCH', `/v1/lists/${listId}`, {
			body: { ImportContactOptions: { set_as_primary_contact: true } },
		});
		expect((await getList(listId)).ImportContactOptions).toEqual({ set_as_primary_contact: true });
	});

	test('ListName is truncated to 50 characters on create and on update', async () => {
		const long = 'N'.repeat(40) + '0123456789ABCDEFGHIJ';
		const listId = await sb.createList({ ListName: long, ListType: 'static' });
		expect((await getList(listId)).ListName).toBe(long.slice(0, 50));

		const longer = 'M'.repeat(80);
		expect(await sb.ok('PATCH', `/v1/lists/${listId}`, { body: { ListName: longer } })).toEqual({
			updateCount: 1,
		});
		expect((await getList(listId)).ListName).toBe('M'.repeat(50));
	});

	test('PATCH answers updateCount and changes name and DisplayOrder', async () => {
		const listId = await sb.createList({ ListName: 'Before', ListType: 'static' });
		expect(
			await sb.ok('PATCH', `/v1/lists/${listId}`, { body: { ListName: 'After', DisplayOrder: 4 } }),
		).toEqual({ updateCount: 1 });
		expect(await getList(listId)).toMatchObject({ ListName: 'After', DisplayOrder: 4 });
	});

	test('Criteria cannot be changed by PATCH', async () => {
		const listId = await sb.createList({ ListName: 'Fixed', ...byPropIds(['P000001']) });
		expectError(
			await sb.api('PATCH', `/v1/lists/${listId}`, {
				body: { Criteria: [{ name: 'PropID', value: ['P000002'] }] },
			}),
			400,
			'Unexpected payload field',
		);
		expect(await itemIds(listId)).toEqual(['P000001']);
	});

	test('DELETE answers deleteCount; the list is gone from reads', async () => {
		const listId = await sb.createList({ ListName: 'Doomed', ...byPropIds(propIds(300, 3)) });
		const keep = await sb.createList({ ListName: 'Kept', ListType: 'static' });
		expect(await sb.ok('DELETE', `/v1/lists/${listId}`)).toEqual({ deleteCount: 1 });
		expectError(
			await sb.api('GET', `/v1/lists/${listId}`),
			404,
			'Resource does not exist for given id',
		);
		expectError(await sb.api('GET', `/v1/lists/${listId}/items`), 404);
		const all = await sb.ok('GET', '/v1/lists');
		expect(all.results.map((list: Json) => list.ListID)).toEqual([keep]);
		expectError(await sb.api('DELETE', `/v1/lists/${listId}`), 404);
	});
});

describe('GET /v1/lists: order, filters, Sort/Dir, Limit, Fields', () => {
	let ids: { big: number; small: number; alpha: number; zulu: number; monitored: number };

	beforeEach(async () => {
		ids = {
			big: await sb.createList({ ListName: 'Middle', ...byPropIds(propIds(10, 5)) }),
			small: await sb.createList({ ListName: 'Other', ...byPropIds(propIds(20, 2)) }),
			alpha: await sb.createList({ ListName: 'alpha', ListType: 'static', GroupName: 'G1' }),
			zulu: await sb.createList({ ListName: 'Zulu', ListType: 'static', GroupName: 'G1' }),
			monitored: await sb.createList({ ListName: 'Beta', ListType: 'static', isMonitored: 1 }),
		};
		await sb.ok('PATCH', `/v1/lists/${ids.alpha}`, { body: { DisplayOrder: 3 } });
		await sb.ok('PATCH', `/v1/lists/${ids.zulu}`, { body: { DisplayOrder: 1 } });
		await sb.ok('PATCH', `/v1/lists/${ids.monitored}`, { body: { DisplayOrder: 2 } });
	});

	const names = (body: Json) => body.results.map((list: Json) => list.ListName);

	test('without Sort: by count (largest first), then by name alphabetically', async () => {
		expect(names(await sb.ok('GET', '/v1/lists'))).toEqual([
			'Middle',
			'Other',
			'alpha',
			'Beta',
			'Zulu',
		]);
	});

	test('Sort and Dir, one direction per field', async () => {
		expect(names(await sb.ok('GET', '/v1/lists?Sort=ListName&Dir=desc'))).toEqual([
			'Zulu',
			'Other',
			'Middle',
			'Beta',
			'alpha',
		]);
		expect(names(await sb.ok('GET', '/v1/lists?Sort=TotalCount,ListName&Dir=asc,desc'))).toEqual([
			'Zulu',
			'Beta',
			'alpha',
			'Other',
			'Middle',
		]);
	});

	test('DisplayOrder is always sorted ascending, whatever Dir says', async () => {
		const asc = names(await sb.ok('GET', '/v1/lists?Sort=DisplayOrder'));
		const desc = names(await sb.ok('GET', '/v1/lists?Sort=DisplayOrder&Dir=desc'));
		expect(desc).toEqual(asc);
		expect(asc.slice(2)).toEqual(['Zulu', 'Beta', 'alpha']);
	});

	test('an unsortable field or a bad Dir is refused', async () => {
		expectError(await sb.api('GET', '/v1/lists?Sort=GroupName'), 400);
		expectError(await sb.api('GET', '/v1/lists?Sort=ListName&Dir=up'), 400);
	});

	test('Limit caps the number of records', async () => {
		expect(names(await sb.ok('GET', '/v1/lists?Limit=2'))).toEqual(['Middle', 'Other']);
	});

	test('filters: ListType, isMonitored, GroupName, DisplayOrder', async () => {
		expect(names(await sb.ok('GET', '/v1/lists?ListType=dynamic')).sort()).toEqual([
			'Middle',
			'Other',
		]);
		expect(names(await sb.ok('GET', '/v1/lists?isMonitored=1'))).toEqual(['Beta']);
		expect(names(await sb.ok('GET', '/v1/lists?GroupName=G1'))).toEqual(['alpha', 'Zulu']);
		expect(names(await sb.ok('GET', '/v1/lists?DisplayOrder=3'))).toEqual(['alpha']);
	});

	test('Fields picks single fields; a leading - suppresses one', async () => {
		const picked = await sb.ok('GET', '/v1/lists?Fields=ListID,ListName');
		for (const list of picked.results)
			expect(Object.keys(list).sort()).toEqual(['ListID', 'ListName']);

		const suppressed = await sb.ok('GET', `/v1/lists/${ids.alpha}?Fields=-GroupName,-LastViewed`);
		expect(suppressed.results[0]).not.toHaveProperty('GroupName');
		expect(suppressed.results[0]).not.toHaveProperty('LastViewed');
		expect(suppressed.results[0]).toMatchObject({
			ListID: ids.alpha,
			ListName: 'alpha',
			TotalCount: '0',
		});

		expectError(await sb.api('GET', '/v1/lists?Fields=ListID,Colour'), 400);
	});
});

describe('list items', () => {
	test('static list: PUT adds by criteria (updateCount), GET returns PropIDs, DELETE removes one (deleteCount)', async () => {
		const listId = await sb.createList({ ListName: 'Static', ListType: 'static' });
		const ids = propIds(500, 3);
		expect(await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(ids) })).toEqual({
			updateCount: 3,
		});
		expect(await itemIds(listId)).toEqual(ids);
		expect((await getList(listId)).TotalCount).toBe('3');

		expect(
			await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds([ids[0], 'P000600']) }),
		).toEqual({ updateCount: 1 });
		expect((await itemIds(listId)).sort()).toEqual([...ids, 'P000600'].sort());

		expect(await sb.ok('DELETE', `/v1/lists/${listId}/items/${ids[1]}`)).toEqual({
			deleteCount: 1,
		});
		expect(await itemIds(listId)).not.toContain(ids[1]);
		expect((await getList(listId)).TotalCount).toBe('3');
		expectError(await sb.api('DELETE', `/v1/lists/${listId}/items/${ids[1]}`), 404);
	});

	test('PUT items selects by any criteria, not only PropID', async () => {
		const listId = await sb.createList({ ListName: 'Static', ListType: 'static' });
		const body = {
			Criteria: [
				{ name: 'PropID', value: propIds(700, 40) },
				{ name: 'State', value: ['OR'] },
			],
		};
		const { updateCount } = await sb.ok('PUT', `/v1/lists/${listId}/items`, { body });
		expect(updateCount).toBeGreaterThan(0);
		expect(updateCount).toBeLessThan(40);
		const items = await sb.ok('GET', `/v1/lists/${listId}/items?Fields=PropID,State`);
		expect(items.results).toHaveLength(updateCount);
		for (const item of items.results) expect(item.State).toBe('OR');
	});

	test('Start and Limit page through the items; the last page is short', async () => {
		const listId = await sb.createList({ ListName: 'Paged', ListType: 'static' });
		await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(propIds(1000, 10)) });
		const all = await itemIds(listId);
		expect(all).toHaveLength(10);
		const pages = [
			await itemIds(listId, '?Start=0&Limit=4'),
			await itemIds(listId, '?Start=4&Limit=4'),
			await itemIds(listId, '?Start=8&Limit=4'),
		];
		expect(pages.map((page) => page.length)).toEqual([4, 4, 2]);
		expect(pages.flat()).toEqual(all);
		expect(await itemIds(listId, '?Start=10&Limit=4')).toEqual([]);
		expectError(await sb.api('GET', `/v1/lists/${listId}/items?Limit=0`), 400);
		expectError(await sb.api('GET', `/v1/lists/${listId}/items?Start=-1`), 400);
	});

	test('Fields takes the list-item fieldsets; each carries PropID', async () => {
		const listId = await sb.createList({ ListName: 'Map', ...byPropIds(propIds(40, 3)) });
		const map = await sb.ok('GET', `/v1/lists/${listId}/items?Fields=Map`);
		expect(map.results).toHaveLength(3);
		for (const item of map.results)
			expect(Object.keys(item).sort()).toEqual(['Latitude', 'Longitude', 'PType', 'PropID']);
		for (const fieldset of [
			'GridForeclosureOptional',
			'GridOptional',
			'Card',
			'Mobile',
			'Overview',
			'Details',
			'PropertyTab',
			'LimitedREI',
		]) {
			const body = await sb.ok('GET', `/v1/lists/${listId}/items?Fields=${fieldset}&Limit=1`);
			expect(body.results[0].PropID).toBe('P000040');
		}
	});

	test('PType filter keeps only that property type', async () => {
		const listId = await sb.createList({ ListName: 'Mixed', ...byPropIds(propIds(1, 60)) });
		const typed = await sb.ok('GET', `/v1/lists/${listId}/items?Fields=PropID,PType&PType=CND`);
		expect(typed.results.length).toBeGreaterThan(0);
		expect(typed.results.length).toBeLessThan(60);
		for (const item of typed.results) expect(item.PType).toBe('CND');
	});

	test('PUT items is refused on dynamic and import lists; nothing is added', async () => {
		const dynamic = await sb.createList({ ListName: 'Dynamic', ...byPropIds(['P000001']) });
		const imported = await sb.createList({
			ListName: 'Import',
			ListType: 'import',
			ImportSource: 'api',
		});
		for (const listId of [dynamic, imported]) {
			expectError(
				await sb.api('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(['P000002']) }),
				400,
				/^Not applicable to/,
			);
			expect(await itemIds(listId)).not.toContain('P000002');
		}
	});
});

describe('states and transitions of the lists document', () => {
	/** A listing status the property does not have, and criteria that match the property once it has it. */
	async function watched(propId: string): Promise<{ status: string; criteria: Json }> {
		const property = await readProperty(sb, propId);
		const status = property.ListingStatus === 'Withdrawn' ? 'Expired' : 'Withdrawn';
		return {
			status,
			criteria: {
				Criteria: [
					{ name: 'PropID', value: [propId, 'P000002', 'P000003'] },
					{ name: 'ListingStatus', value: [status] },
				],
			},
		};
	}

	test('unmonitored -> monitored -> unmonitored by PATCH isMonitored: automations run only while monitored', async () => {
		const listId = await sb.createList({ ListName: 'Watch', ListType: 'static' });
		await sb.ok('PUT', `/v1/lists/${listId}/automations`, {
			body: { isEnabled: 1, Triggers: 'New Matches', ImmediateEmailMemberIDs: 'M101' },
		});
		const emailed = async () =>
			(await sb.ok('GET', '/_sandbox/outbox', { token: null })).results
				.filter((entry: Json) => entry.ListID === listId)
				.map((entry: Json) => entry.PropID);

		await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(['P000011']) });
		expect(await emailed()).toEqual([]);

		expect(await sb.ok('PATCH', `/v1/lists/${listId}`, { body: { isMonitored: 1 } })).toEqual({
			updateCount: 1,
		});
		const on = await getList(listId);
		expect(on.isMonitored).toBe(1);
		expect(Number.isNaN(Date.parse(on.MonitoringStartedOn))).toBe(false);
		await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(['P000012']) });
		expect(await emailed()).toEqual(['P000012']);

		expect(await sb.ok('PATCH', `/v1/lists/${listId}`, { body: { isMonitored: 0 } })).toEqual({
			updateCount: 1,
		});
		const off = await getList(listId);
		expect(off).toMatchObject({ isMonitored: 0, MonitoringStartedOn: null });
		await sb.ok('PUT', `/v1/lists/${listId}/items`, { body: byPropIds(['P000013']) });
		expect(await emailed()).toEqual(['P000012']);
	});

	test('a monitored dynamic list follows data changes with no client call', async () => {
		const { status, criteria } = await watched('P000101');
		const listId = await sb.createList({
			ListName: 'Watched listings',
			isMonitored: 1,
			...criteria,
		});
		const before = (await getList(listId)).TotalCount;

		const change = await sb.ok('POST', '/_sandbox/simulate/change', {
			token: null,
			body: { PropID: 'P000101', change: 'listing', to: status },
		});
		expect(change.events).toContainEqual({ ListID: listId, type: 'New Match' });
		// The list record is not a read of the items: its count moved because the service moved it.
		expect(Number((await getList(listId)).TotalCount)).toBe(Number(before) + 1);
		expect(await itemIds(listId)).toContain('P000101');

		await sb.ok('POST', '/_sandbox/simulate/change', {
			token: null,
			body: { PropID: 'P000101', change: 'listing', to: 'Active' },
		});
		expect((await getList(listId)).TotalCount).toBe(before);
		expect(await itemIds(listId)).not.toContain('P000101');
	});

	test('an unmonitored dynamic list is refreshed when its items are read', async () => {
		const { status, criteria } = await watched('P000102');
		const listId = await sb.createList({
			ListName: 'Watched listings',
			isMonitored: 0,
			...criteria,
		});
		const before = Number((await getList(listId)).TotalCount);

		const change = await sb.ok('POST', '/_sandbox/simulate/change', {
			token: null,
			body: { PropID: 'P000102', change: 'listing', to: status },
		});
		expect(change.events.filter((event: Json) => event.ListID === listId)).toEqual([]);
		expect(Number((await getList(listId)).TotalCount)).toBe(before);

		expect(await itemIds(listId)).toContain('P000102');
		expect(Number((await getList(listId)).TotalCount)).toBe(before + 1);
	});

	test('an unmonitored dynamic list is refreshed by a property search using InList', async () => {
		const { status, criteria } = await watched('P000103');
		const listId = await sb.createList({
			ListName: 'Watched listings',
			isMonitored: 0,
			...criteria,
		});
		const count = async () =>
			(
				await sb.ok('POST', '/v1/properties?Purchase=0', {
					body: { Criteria: [{ name: 'InList', value: [listId] }] },
				})
			).totalResultCount;
		const before = await count();

		await sb.ok('POST', '/_sandbox/simulate/change', {
			token: null,
			body: { PropID: 'P000103', change: 'listing', to: status },
		});
		expect(await count()).toBe(before + 1);
	});
});
