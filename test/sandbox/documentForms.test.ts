/**
 * The sandbox on forms the API documents (and the service's notes) give: the documents' own
 * `Fields=overview,Persons`, the List table's Criteria read back, the persons endpoint's `-PropID`
 * and `-PersonKey`, the compound PropertyType holding only PType and AdvancedPropertyType, and a
 * before-date written as an empty `from:`.
 */
import { expectError, useSandbox } from './helpers';

const sb = useSandbox();

test('Fields=overview,Persons on a property endpoint is the Overview fieldset with the owners', async () => {
	const [property] = (
		await sb.ok('GET', '/v1/properties/P000040?Purchase=1&Fields=overview,Persons')
	).results;
	const [overview] = (
		await sb.ok('GET', '/v1/properties/P000040?Purchase=1&Fields=Overview,Persons')
	).results;
	expect(property).toEqual(overview);
	expect(property).toMatchObject({
		PropID: 'P000040',
		StatusLevel: expect.anything(),
		Persons: expect.any(Array),
	});
	expect(
		(await sb.ok('GET', '/v1/properties/P000040/persons?Purchase=1&Fields=OVERVIEW')).results[0],
	).toHaveProperty('FirstName');
	expectError(
		await sb.api('GET', '/v1/properties/P000040?Purchase=1&Fields=persons'),
		400,
		'Invalid Fields',
	);
});

test("a dynamic list's Criteria are read back; other lists have none", async () => {
	const criteria = [
		{ name: 'State', value: ['OR'] },
		{ name: 'Beds', value: [[3, null]] },
	];
	const dynamic = await sb.createList({
		ListName: 'Big in Oregon',
		ListType: 'dynamic',
		Criteria: criteria,
	});
	const fixed = await sb.createList({
		ListName: 'Filled once',
		ListType: 'static',
		Criteria: criteria,
	});
	expect((await sb.ok('GET', `/v1/lists/${dynamic}?Fields=ListID,Criteria`)).results).toEqual([
		{ ListID: dynamic, Criteria: criteria },
	]);
	expect((await sb.ok('GET', `/v1/lists/${fixed}?Fields=ListID,Criteria`)).results).toEqual([
		{ ListID: fixed },
	]);
	expect((await sb.ok('GET', `/v1/lists/${dynamic}`)).results[0].Criteria).toEqual(criteria);
});

test('the persons endpoint leaves out PropID and PersonKey when Fields suppresses them', async () => {
	const [full] = (await sb.ok('GET', '/v1/properties/P000040/persons?Purchase=1&Fields=FirstName'))
		.results;
	expect(Object.keys(full).sort()).toEqual(['FirstName', 'PersonKey', 'PropID']);
	const [bare] = (
		await sb.ok(
			'GET',
			'/v1/properties/P000040/persons?Purchase=1&Fields=FirstName,-PropID,-PersonKey',
		)
	).results;
	expect(Object.keys(bare)).toEqual(['FirstName']);
	const [keyed] = (
		await sb.ok('GET', '/v1/properties/P000040/persons?Purchase=1&Fields=overview,-PropID')
	).results;
	expect(keyed).toHaveProperty('PersonKey');
	expect(keyed).not.toHaveProperty('PropID');
});

describe('the compound PropertyType holds PType and AdvancedPropertyType criteria, nothing else', () => {
	const search = (criteria: unknown) =>
		sb.api('POST', '/v1/properties?Purchase=0', { body: { Criteria: criteria } });

	test.each([
		[{ name: 'State', value: ['OR'] }, '"State"'],
		[{ name: 'PropertyType', value: [{ name: 'PType', value: ['SFR'] }] }, '"PropertyType"'],
		['SFR', 'a value that is no criterion'],
		[['SFR'], 'a value that is no criterion'],
	])('%j inside it answers 400, naming it', async (inner, named) => {
		const answer = expectError(
			await search([{ name: 'PropertyType', value: [inner] }]),
			400,
			'Invalid Criteria',
		);
		expect(answer.message).toContain(
			`holds nested PType and AdvancedPropertyType criteria only, not ${named}`,
		);
	});

	test('PType and AdvancedPropertyType inside it are taken', async () => {
		const answer = await search([
			{
				name: 'PropertyType',
				value: [
					{ name: 'PType', value: ['SFR'] },
					{ name: 'AdvancedPropertyType', value: ['Condominium'] },
				],
			},
		]);
		expect(answer.status).toBe(200);
		expect(answer.body.totalResultCount).toBeGreaterThan(0);
	});
});

describe('a before-date is a range with an empty from: ("from: to: M/D/YYYY"), which also takes unknown dates', () => {
	const year = (date: unknown) => Number(String(date).split('/')[2]);

	test('as a list-item filter: properties last sold on or before the date, and those never sold; before: is no form of the API', async () => {
		const listId = await sb.createList({ ListName: 'Sixty', ListType: 'static' });
		const propIds = Array.from({ length: 60 }, (_, i) => `P${String(i + 1).padStart(6, '0')}`);
		await sb.ok('PUT', `/v1/lists/${listId}/items`, {
			body: { Criteria: [{ name: 'PropID', value: propIds }] },
		});
		const read = async (filter: string) =>
			(
				await sb.ok(
					'GET',
					`/v1/lists/${listId}/items?Limit=1000&Fields=PropID,LastTransferRecDate${filter}`,
				)
			).results as Array<{ PropID: string; LastTransferRecDate: string | null }>;
		const all = await read('');
		const before = await read(`&LastTransferRecDate=${encodeURIComponent('from: to: 12/31/2009')}`);
		expect(before.map((item) => item.PropID)).toEqual(
			all
				.filter(
					(item) => item.LastTransferRecDate === null || year(item.LastTransferRecDate) < 2010,
				)
				.map((item) => item.PropID),
		);
		expect(before.some((item) => item.LastTransferRecDate === null)).toBe(true);
		const since = await read(`&LastTransferRecDate=${encodeURIComponent('from: 1/1/2010 to:')}`);
		expect(since.map((item) => item.PropID)).toEqual(
			all
				.filter(
					(item) => item.LastTransferRecDate !== null && year(item.LastTransferRecDate) >= 2010,
				)
				.map((item) => item.PropID),
		);
		for (const value of ['before: 1/1/2010', 'from: to:'])
			expectError(
				await sb.api(
					'GET',
					`/v1/lists/${listId}/items?LastTransferRecDate=${encodeURIComponent(value)}`,
				),
				400,
				'Invalid LastTransferRecDate',
			);
	});

	test('as a criterion: the same', async () => {
		const propIds = Array.from({ length: 60 }, (_, i) => `P${String(i + 1).padStart(6, '0')}`);
		const count = async (value: string) =>
			(
				await sb.ok('POST', '/v1/properties?Purchase=0', {
					body: {
						Criteria: [
							{ name: 'PropID', value: propIds },
							{ name: 'LastTransferRecDate', value: [value] },
						],
					},
				})
			).totalResultCount as number;
		// Every one of the sixty, sold or not; then only those with a sale date.
		expect(await count('from: to: 12/31/2100')).toBe(60);
		const sold = await count('from: 1/1/1900 to: 12/31/2100');
		expect(sold).toBeGreaterThan(0);
		expect(sold).toBeLessThan(60);
	});
});
