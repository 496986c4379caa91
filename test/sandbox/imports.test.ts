import { importStatuses } from '../support/apiDocuments';
import { expectError, freeQuote, readProperty, TOKENS, useSandbox, type Json } from './helpers';

const sb = useSandbox();

/** Import statuses of the lists document. */
const PROPERTY_STATUSES = importStatuses('Property import status');
const PERSON_STATUSES = importStatuses('Person import status');

async function importList(extra: Record<string, unknown> = {}): Promise<number> {
	return sb.createList({ ListName: 'Imports', ListType: 'import', ImportSource: 'api', ...extra });
}

async function owners(propId: string): Promise<Json[]> {
	return (await sb.ok('GET', `/v1/properties/${propId}/persons?Purchase=1`)).results;
}

/** A property with at least two owners whose names differ, its address, and its owners. */
async function propertyWithTwoOwners(): Promise<{ property: Json; persons: Json[] }> {
	for (let i = 1; i <= 40; i++) {
		const propId = `P${String(i).padStart(6, '0')}`;
		const persons = await owners(propId);
		const name = (p: Json) => `${p.FirstName} ${p.LastName}`;
		if (
			persons.length >= 2 &&
			persons[0].isPrimaryContact === 1 &&
			persons[1].isPrimaryContact === 0 &&
			name(persons[0]) !== name(persons[1])
		) {
			return { property: await readProperty(sb, propId), persons };
		}
	}
	throw new Error('no property with two differently named owners among the first 40');
}

const primaryOf = (persons: Json[]) =>
	persons.filter((p) => p.isPrimaryContact === 1).map((p) => p.PersonKey);

async function importOne(listId: number, record: Record<string, string>): Promise<Json> {
	const body = await sb.ok('POST', `/v1/lists/${listId}/import/items?Purchase=1`, {
		body: [record],
	});
	return body.results[0];
}

/** A match correction of an import item, answered as it comes. */
const patchItem = (listId: number, itemId: unknown, body: Json) =>
	sb.api('PATCH', `/v1/lists/${listId}/import/items/${itemId}`, { body });

async function listItems(listId: number): Promise<string[]> {
	return (await sb.ok('GET', `/v1/lists/${listId}/items`)).results.map((item: Json) => item.PropID);
}

describe('POST /v1/lists/{ListID}/import/items', () => {
	test('Purchase=0 quotes the cost: no results, totalCost, quantityFreeRemaining, resultCount; nothing imported or charged', async () => {
		const listId = await importList();
		const before = await sb.charges();
		const records = [
			{ Address: '1 Nowhere Rd' },
			{ Address: '2 Nowhere Rd' },
			{ Address: '3 Nowhere Rd' },
		];
		const quote = await sb.ok('POST', `/v1/lists/${listId}/import/items?Purchase=0`, {
			body: records,
		});
		expect(quote).toEqual({ ...freeQuote(before.credits), resultCount: 3 });
		expect(await sb.charges()).toEqual(before);
		expect((await sb.ok('GET', `/v1/lists/${listId}/import/items`)).results).toEqual([]);
	});

	test('Purchase=1 matches each record and charges per record: results with ListImportItemID, totalCost, resultCount', async () => {
		const listId = await importList();
		const property = await readProperty(sb, 'P000321');
		const before = await sb.charges();
		const body = await sb.ok('POST', `/v1/lists/${listId}/import/items?Purchase=1`, {
			body: [
				{ Address: property.Address, ZipFive: String(property.ZipFive) },
				{ Address: '99999 Imaginary Parkway', ZipFive: '00001' },
			],
		});
		expect(body).not.toHaveProperty('quantityFreeRemaining');
		expect(body).toMatchObject({ totalCost: '0.00', resultCount: 2 });
		expect(body.results).toHaveLength(2);
		const [found, missing] = body.results;
		expect(Number.isInteger(found.ListImportItemID)).toBe(true);
		expect(missing.ListImportItemID).not.toBe(found.ListImportItemID);
		expect(found).toMatchObject({ PropertyStatus: 'Matched', PropID: 'P000321' });
		expect(found.MatchScore).toBeGreaterThanOrEqual(80);
		expect(missing).toMatchObject({ PropertyStatus: 'Not Found', PropID: null });

		expect(await listItems(listId)).toEqual(['P000321']);
		const after = await sb.charges();
		expect(after.credits).toBe(before.credits - 2);
		expect(after.log.slice(before.log.length)).toEqual([
			expect.objectContaining({ kind: 'importRecord', quantity: 2, creditsUsed: 2, cents: 0 }),
		]);
	});

	test('once the free credits are gone each record costs $0.05 of the balance', async () => {
		const listId = await importList();
		const records = Array.from({ length: 103 }, (_, i) => ({ Address: `${i + 1} Nowhere Rd` }));
		const quote = await sb.ok('POST', `/v1/lists/${listId}/import/items?Purchase=0`, {
			body: records,
		});
		expect(quote).toMatchObject({
			totalCost: '0.15',
			quantityFreeRemaining: 100,
			resultCount: 103,
		});
		const bought = await sb.ok('POST', `/v1/lists/${listId}/import/items?Purchase=1`, {
			body: records,
		});
		expect(bought).toMatchObject({ totalCost: '0.15', resultCount: 103 });
		const wallet = await sb.charges();
		expect(wallet).toMatchObject({ credits: 0, balanceCents: 500_000 - 15, balance: '4999.85' });
	});

	test('the token may come in X-Prop-Access-Token instead of Authorization', async () => {
		const listId = await importList();
		const answer = await sb.api('POST', `/v1/lists/${listId}/import/items?Purchase=0`, {
			token: null,
			headers: { 'X-Prop-Access-Token': TOKENS.main },
			body: [{ Address: '1 Nowhere Rd' }],
		});
		expect(answer.status).toBe(200);
		expect(answer.body.resultCount).toBe(1);
	});

	test('Purchase is required, the list must be an API import list, records take only the documented fields as strings', async () => {
		const listId = await importList();
		expectError(
			await sb.api('POST', `/v1/lists/${listId}/import/items`, { body: [{ Address: '1 A St' }] }),
			400,
		);
		const fileList = await sb.createList({
			ListName: 'From a file',
			ListType: 'import',
			ImportSource: 'file',
		});
		expectError(
			await sb.api('POST', `/v1/lists/${fileList}/import/items?Purchase=0`, {
				body: [{ Address: '1 A St' }],
			}),
			400,
		);
		expectError(
			await sb.api('POST', `/v1/lists/${listId}/import/items?Purchase=0`, {
				body: [{ Address: '1 A St', Colour: 'red' }],
			}),
			400,
			'Unexpected payload field',
		);
		expectError(
			await sb.api('POST', `/v1/lists/${listId}/import/items?Purchase=0`, {
				body: [{ ZipFive: 97201 }],
			}),
			400,
		);
		expectError(
			await sb.api('POST', `/v1/lists/${listId}/import/items?Purchase=0`, {
				body: { Address: '1 A St' },
			}),
			400,
		);
		expect((await sb.ok('GET', `/v1/lists/${listId}/import/items`)).results).toEqual([]);
	});
});

describe('GET /v1/lists/{ListID}/import/items', () => {
	let listId: number;
	let itemIds: number[];

	beforeEach(async () => {
		listId = await importList();
		const properties = [await readProperty(sb, 'P000401'), await readProperty(sb, 'P000402')];
		const body = await sb.ok('POST', `/v1/lists/${listId}/import/items?Purchase=1`, {
			body: [
				{
					Address: properties[0].Address,
					ZipFive: String(properties[0].ZipFive),
					FullName: 'Nobody Known',
				},
				{ Address: properties[1].Address, City: properties[1].City },
				{ Address: '1 Imaginary Way', State: 'ZZ' },
			],
		});
		itemIds = body.results.map((item: Json) => item.ListImportItemID);
	});

	test('returns each item with its match information and the imported fields, statuses from the documented lists', async () => {
		const body = await sb.ok('GET', `/v1/lists/${listId}/import/items`);
		expect(body.results.map((item: Json) => item.ListImportItemID)).toEqual(itemIds);
		for (const item of body.results) {
			expect(item).toMatchObject({ ListID: listId, MatchScore: expect.any(Number) });
			expect(PROPERTY_STATUSES).toContain(item.PropertyStatus);
			expect(PERSON_STATUSES).toContain(item.PersonStatus);
			expect(item.MatchScore).toBeGreaterThanOrEqual(0);
			expect(item.MatchScore).toBeLessThanOrEqual(100);
		}
		expect(body.results[0]).toMatchObject({ FullName: 'Nobody Known', PropID: 'P000401' });
		expect(body.results[2]).toMatchObject({
			State: 'ZZ',
			PropertyStatus: 'Not Found',
			PersonStatus: 'Not Found',
		});
	});

	test('filters: MatchScore as a minimum, PropertyStatus and PersonStatus as comma lists', async () => {
		const all = (await sb.ok('GET', `/v1/lists/${listId}/import/items`)).results;
		const min = Math.max(...all.map((item: Json) => item.MatchScore));
		const best = (await sb.ok('GET', `/v1/lists/${listId}/import/items?MatchScore=${min}`)).results;
		expect(best.length).toBeGreaterThan(0);
		for (const item of best) expect(item.MatchScore).toBe(min);

		const notFound = (
			await sb.ok(
				'GET',
				`/v1/lists/${listId}/import/items?PropertyStatus=${encodeURIComponent('Not Found')}`,
			)
		).results;
		expect(notFound.map((item: Json) => item.ListImportItemID)).toEqual([itemIds[2]]);
		const either = (
			await sb.ok(
				'GET',
				`/v1/lists/${listId}/import/items?PropertyStatus=${encodeURIComponent('Matched,Pending,Not Found')}`,
			)
		).results;
		expect(either).toHaveLength(3);
		const byPerson = (
			await sb.ok(
				'GET',
				`/v1/lists/${listId}/import/items?PersonStatus=${encodeURIComponent('Not Found')}`,
			)
		).results;
		expect(byPerson.every((item: Json) => item.PersonStatus === 'Not Found')).toBe(true);

		expectError(await sb.api('GET', `/v1/lists/${listId}/import/items?PropertyStatus=Lost`), 400);
	});

	test('Sort, Dir, Start, Limit and Fields', async () => {
		const desc = (
			await sb.ok('GET', `/v1/lists/${listId}/import/items?Sort=ListImportItemID&Dir=desc`)
		).results;
		expect(desc.map((item: Json) => item.ListImportItemID)).toEqual([...itemIds].reverse());
		const page = (await sb.ok('GET', `/v1/lists/${listId}/import/items?Start=1&Limit=1`)).results;
		expect(page.map((item: Json) => item.ListImportItemID)).toEqual([itemIds[1]]);
		const slim = (
			await sb.ok('GET', `/v1/lists/${listId}/import/items?Fields=ListImportItemID,PropID`)
		).results;
		for (const item of slim)
			expect(Object.keys(item).sort()).toEqual(['ListImportItemID', 'PropID']);
	});
});

describe('import item transitions of the lists document', () => {
	test('DELETE removes the match (deleteCount) and reverts a contact set as primary', async () => {
		const { property, persons } = await propertyWithTwoOwners();
		const [first, second] = persons;
		const listId = await importList({ ImportContactOptions: { set_as_primary_contact: true } });
		const item = await importOne(listId, {
			Address: property.Address,
			ZipFive: String(property.ZipFive),
			FirstName: second.FirstName,
			LastName: second.LastName,
		});
		expect(item).toMatchObject({
			PropID: property.PropID,
			PersonKey: second.PersonKey,
			PersonStatus: 'Matched Set as Primary',
		});
		expect(primaryOf(await owners(property.PropID))).toEqual([second.PersonKey]);

		expect(
			await sb.ok('DELETE', `/v1/lists/${listId}/import/items/${item.ListImportItemID}`),
		).toEqual({ deleteCount: 1 });
		expect(primaryOf(await owners(property.PropID))).toEqual([first.PersonKey]);
		expect((await sb.ok('GET', `/v1/lists/${listId}/import/items`)).results).toEqual([]);
		expect(await listItems(listId)).toEqual([]);
		expectError(
			await sb.api('DELETE', `/v1/lists/${listId}/import/items/${item.ListImportItemID}`),
			404,
		);
	});

	test('DELETE removes a contact the import added as primary', async () => {
		const property = await readProperty(sb, 'P000777');
		const before = await owners('P000777');
		const listId = await importList({ ImportContactOptions: { add_as_primary_contact: true } });
		const item = await importOne(listId, {
			Address: property.Address,
			ZipFive: String(property.ZipFive),
			FirstName: 'Zebediah',
			LastName: 'Newcomer',
		});
		expect(item.PersonStatus).toBe('Added as Primary');

		const during = await owners('P000777');
		expect(during).toHaveLength(before.length + 1);
		expect(during.find((p) => p.PersonKey === item.PersonKey)).toMatchObject({
			FirstName: 'Zebediah',
			LastName: 'Newcomer',
			isPrimaryContact: 1,
			Status: 'added',
		});
		expect(primaryOf(during)).toEqual([item.PersonKey]);

		await sb.ok('DELETE', `/v1/lists/${listId}/import/items/${item.ListImportItemID}`);
		const after = await owners('P000777');
		expect(after.map((p) => p.PersonKey)).toEqual(before.map((p) => p.PersonKey));
		expect(primaryOf(after)).toEqual(primaryOf(before));
	});

	test('without the option, a matched non-primary contact stays non-primary', async () => {
		const { property, persons } = await propertyWithTwoOwners();
		const listId = await importList();
		const item = await importOne(listId, {
			Address: property.Address,
			ZipFive: String(property.ZipFive),
			FirstName: persons[1].FirstName,
			LastName: persons[1].LastName,
		});
		expect(item).toMatchObject({ PersonKey: persons[1].PersonKey, PersonStatus: 'Matched' });
		expect(primaryOf(await owners(property.PropID))).toEqual([persons[0].PersonKey]);
	});

	test('PATCH updates the match with the given PropID and PersonKey; statuses follow the documented lists; the list follows', async () => {
		const { property: target, persons } = await propertyWithTwoOwners();
		const listId = await importList();
		const original = await readProperty(sb, 'P000555');
		const item = await importOne(listId, {
			Address: original.Address,
			ZipFive: String(original.ZipFive),
		});
		expect(item.PropID).toBe('P000555');

		const patched = await sb.ok(
			'PATCH',
			`/v1/lists/${listId}/import/items/${item.ListImportItemID}`,
			{ body: { PropID: target.PropID, PersonKey: persons[1].PersonKey } },
		);
		expect(patched.results).toHaveLength(1);
		expect(patched.results[0]).toMatchObject({
			ListImportItemID: item.ListImportItemID,
			PropID: target.PropID,
			PersonKey: persons[1].PersonKey,
			PropertyStatus: 'Selected',
			PersonStatus: 'Selected',
		});
		expect(await listItems(listId)).toEqual([target.PropID]);

		const primary = await sb.ok(
			'PATCH',
			`/v1/lists/${listId}/import/items/${item.ListImportItemID}`,
			{ body: { PersonKey: persons[0].PersonKey } },
		);
		expect(primary.results[0]).toMatchObject({
			PropID: target.PropID,
			PersonKey: persons[0].PersonKey,
			PersonStatus: 'Selected as Primary',
		});

		const stored = (await sb.ok('GET', `/v1/lists/${listId}/import/items`)).results[0];
		expect(stored).toMatchObject({
			PropID: target.PropID,
			PersonKey: persons[0].PersonKey,
			PropertyStatus: 'Selected',
			PersonStatus: 'Selected as Primary',
		});
	});

	test('PATCH refuses an unknown item, an unknown PropID and a PersonKey not at the property', async () => {
		const listId = await importList();
		const original = await readProperty(sb, 'P000556');
		const item = await importOne(listId, {
			Address: original.Address,
			ZipFive: String(original.ZipFive),
		});
		expectError(await patchItem(listId, 999999, { PropID: 'P000001' }), 404);
		expectError(await patchItem(listId, item.ListImportItemID, { PropID: 'P999999' }), 404);
		expectError(await patchItem(listId, item.ListImportItemID, { PersonKey: 'K060000A' }), 400);
		expectError(
			await patchItem(listId, item.ListImportItemID, { ListID: 3 }),
			400,
			'Unexpected payload field',
		);
		const stored = (await sb.ok('GET', `/v1/lists/${listId}/import/items`)).results[0];
		expect(stored).toMatchObject({
			PropID: 'P000556',
			PropertyStatus: item.PropertyStatus,
			PersonStatus: item.PersonStatus,
		});
	});

	test('a refused PATCH leaves a primary-contact change of the import in place', async () => {
		const { property, persons } = await propertyWithTwoOwners();
		const listId = await importList({ ImportContactOptions: { set_as_primary_contact: true } });
		const item = await importOne(listId, {
			Address: property.Address,
			ZipFive: String(property.ZipFive),
			FirstName: persons[1].FirstName,
			LastName: persons[1].LastName,
		});
		expect(item.PersonStatus).toBe('Matched Set as Primary');

		expectError(await patchItem(listId, item.ListImportItemID, { PersonKey: 'K060000A' }), 400);
		expectError(await patchItem(listId, item.ListImportItemID, { PropID: 'P999999' }), 404);
		expect(primaryOf(await owners(property.PropID))).toEqual([persons[1].PersonKey]);

		await sb.ok('DELETE', `/v1/lists/${listId}/import/items/${item.ListImportItemID}`);
		expect(primaryOf(await owners(property.PropID))).toEqual([persons[0].PersonKey]);
	});
});
