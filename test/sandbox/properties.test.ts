import { PROPERTY_FIELDSETS } from '../../nodes/PropRadar/shared/vocabulary';
import { personFieldset, propertyFieldset } from '../support/apiDocuments';
import { expectError, freeQuote, readProperty, useSandbox, type Json } from './helpers';

const sb = useSandbox();

/** Field lists of the property document. */
const MAP = propertyFieldset('Map');
const OVERVIEW = propertyFieldset('Overview');
/** The two pairs the Card, Mobile and Overview fieldsets swap (the property document). */
const AVM_PAIR = ['AVM', 'AvailableEquity'];
const ASSESSED_PAIR = ['AssessedValue', 'TotalLoanBalance'];
/** The Overview fields of a property that is (or is not) valued by its AVM. */
const overviewOf = (byAvm: boolean) =>
	OVERVIEW.filter((field) => !(byAvm ? ASSESSED_PAIR : AVM_PAIR).includes(field));
const PERSON_OVERVIEW = personFieldset('overview');

const search = (criteria: Json[], query = 'Purchase=1') =>
	sb.ok('POST', `/v1/properties?${query}`, { body: { Criteria: criteria } });
const sorted = (values: string[]) => [...values].sort();

describe('GET /v1/properties/{PropID}', () => {
	test('Purchase=0 quotes one record and changes nothing', async () => {
		const before = await sb.charges();
		const quote = await sb.ok('GET', '/v1/properties/P000010?Purchase=0');
		expect(quote).toEqual({ ...freeQuote(before.credits), resultCount: 1 });
		expect(await sb.charges()).toEqual(before);
	});

	test('Purchase=1 returns the Overview fields by default and takes one credit', async () => {
		const before = await sb.charges();
		const body = await sb.ok('GET', '/v1/properties/P000010?Purchase=1');
		expect(body).toMatchObject({ totalCost: '0.00', resultCount: 1 });
		expect(body).not.toHaveProperty('quantityFreeRemaining');
		expect(sorted(Object.keys(body.results[0]))).toEqual(
			sorted(overviewOf(body.results[0].PType !== 'LND')),
		);
		expect(body.results[0].PropID).toBe('P000010');
		expect((await sb.charges()).credits).toBe(before.credits - 1);
	});

	test('Fields: a fieldset, single fields, and - suppression', async () => {
		const map = (await sb.ok('GET', '/v1/properties/P000011?Purchase=1&Fields=Map')).results[0];
		expect(sorted(Object.keys(map))).toEqual(sorted(MAP));
		const single = (
			await sb.ok('GET', '/v1/properties/P000011?Purchase=1&Fields=PropID,Beds,Baths')
		).results[0];
		expect(sorted(Object.keys(single))).toEqual(['Baths', 'Beds', 'PropID']);
		const suppressed = (
			await sb.ok('GET', '/v1/properties/P000011?Purchase=1&Fields=Map,-Latitude,-Longitude')
		).results[0];
		expect(sorted(Object.keys(suppressed))).toEqual(['PType', 'PropID']);
		expect(suppressed).toEqual({ PropID: map.PropID, PType: map.PType });
	});

	test('the Persons field carries the overview person fields', async () => {
		const property = (
			await sb.ok('GET', '/v1/properties/P000012?Purchase=1&Fields=Overview,Persons')
		).results[0];
		expect(Array.isArray(property.Persons)).toBe(true);
		expect(property.Persons.length).toBeGreaterThanOrEqual(1);
		for (const person of property.Persons) {
			expect(typeof person.PersonKey).toBe('string');
			for (const field of PERSON_OVERVIEW) expect(person).toHaveProperty(field);
		}
	});

	describe('Card, Mobile and Overview show AVM/AvailableEquity or AssessedValue/TotalLoanBalance, whichever approximates the value', () => {
		/** The first property of a type, found by a search. */
		const firstOf = async (ptype: string) =>
			(await search([{ name: 'PType', value: [ptype] }], 'Purchase=1&Fields=PropID&Limit=1'))
				.results[0].PropID as string;

		test.each(['Card', 'Mobile', 'Overview'])(
			'%s: a building by its AVM, vacant land by its assessed value',
			async (fieldset) => {
				for (const [ptype, shown, hidden] of [
					['SFR', AVM_PAIR, ASSESSED_PAIR],
					['CND', AVM_PAIR, ASSESSED_PAIR],
					['LND', ASSESSED_PAIR, AVM_PAIR],
				] as const) {
					const propId = await firstOf(ptype);
					const read = (
						await sb.ok('GET', `/v1/properties/${propId}?Purchase=1&Fields=${fieldset}`)
					).results[0];
					const listed = (
						await search([{ name: 'PropID', value: [propId] }], `Purchase=1&Fields=${fieldset}`)
					).results[0];
					for (const record of [read, listed]) {
						for (const field of shown)
							expect({ ptype, field, has: Object.hasOwn(record, field) }).toEqual({
								ptype,
								field,
								has: true,
							});
						for (const field of hidden)
							expect({ ptype, field, has: Object.hasOwn(record, field) }).toEqual({
								ptype,
								field,
								has: false,
							});
					}
				}
			},
		);

		test('list items with these fieldsets swap the same way', async () => {
			const land = await firstOf('LND');
			const house = await firstOf('SFR');
			const listId = await sb.createList({ ListName: 'Both', ListType: 'static' });
			await sb.ok('PUT', `/v1/lists/${listId}/items`, {
				body: { Criteria: [{ name: 'PropID', value: [land, house] }] },
			});
			const items = (await sb.ok('GET', `/v1/lists/${listId}/items?Fields=Overview`)).results;
			const byId = Object.fromEntries(items.map((item: Json) => [item.PropID, item]));
			expect(sorted(Object.keys(byId[house]))).toEqual(sorted(overviewOf(true)));
			expect(sorted(Object.keys(byId[land]))).toEqual(sorted(overviewOf(false)));
		});

		test('a value field named on its own, or by a fieldset that always has it, always comes back', async () => {
			const land = await firstOf('LND');
			const house = await firstOf('SFR');
			for (const propId of [land, house]) {
				const named = (
					await sb.ok(
						'GET',
						`/v1/properties/${propId}?Purchase=1&Fields=Overview,AVM,AssessedValue`,
					)
				).results[0];
				for (const field of ['AVM', 'AssessedValue']) expect(named).toHaveProperty(field);
				const valueTab = (
					await sb.ok('GET', `/v1/properties/${propId}?Purchase=1&Fields=Card,ValueTab`)
				).results[0];
				for (const field of [...AVM_PAIR, ...ASSESSED_PAIR]) expect(valueTab).toHaveProperty(field);
			}
			const suppressed = (
				await sb.ok('GET', `/v1/properties/${house}?Purchase=1&Fields=Overview,-AvailableEquity`)
			).results[0];
			expect(suppressed).toHaveProperty('AVM');
			expect(suppressed).not.toHaveProperty('AvailableEquity');
			expect(suppressed).not.toHaveProperty('AssessedValue');
		});
	});

	test('every fieldset of the property document is accepted', async () => {
		for (const fieldset of Object.keys(PROPERTY_FIELDSETS)) {
			const answer = await sb.api('GET', `/v1/properties/P000013?Purchase=0&Fields=${fieldset}`);
			expect({ fieldset, status: answer.status }).toEqual({ fieldset, status: 200 });
		}
	});
});

describe('POST /v1/properties', () => {
	test('Purchase=0: totalResultCount and the cost of the page, no records, nothing charged', async () => {
		const before = await sb.charges();
		const body = await search([{ name: 'State', value: ['OR'] }], 'Purchase=0&Limit=500');
		expect(body.results).toEqual([]);
		expect(body.totalResultCount).toBeGreaterThan(500);
		// 500 records: 100 free credits, then 400 at $0.10.
		expect(body).toMatchObject({
			resultCount: 500,
			quantityFreeRemaining: 100,
			totalCost: '40.00',
		});
		expect(await sb.charges()).toEqual(before);
	});

	test('at most 500 a page; the default page is 100', async () => {
		expectError(
			await sb.api('POST', '/v1/properties?Purchase=0&Limit=501', {
				body: { Criteria: [{ name: 'State', value: ['WA'] }] },
			}),
			400,
		);
		const page = await search([{ name: 'State', value: ['WA'] }], 'Purchase=0');
		expect(page.resultCount).toBe(100);
	});

	test('Start and Limit page through the matches; totalResultCount is the whole', async () => {
		const criteria = [
			{ name: 'ZipFive', value: [97205] },
			{ name: 'PType', value: ['SFR'] },
		];
		const whole = await search(criteria, 'Purchase=1&Fields=PropID&Limit=30');
		const total = whole.totalResultCount;
		expect(total).toBeGreaterThan(10);
		const first = await search(criteria, 'Purchase=1&Fields=PropID&Start=0&Limit=6');
		const second = await search(criteria, 'Purchase=1&Fields=PropID&Start=6&Limit=6');
		expect(first.totalResultCount).toBe(total);
		expect([...first.results, ...second.results]).toEqual(whole.results.slice(0, 12));
		const last = await search(criteria, `Purchase=1&Fields=PropID&Start=${total - 2}&Limit=6`);
		expect(last.results).toHaveLength(2);
		expect(last.resultCount).toBe(2);
	});

	test('Sort and Dir order the matches', async () => {
		const body = await search(
			[{ name: 'City', value: ['Bend'] }],
			'Purchase=1&Fields=PropID,AVM&Limit=50&Sort=AVM&Dir=desc',
		);
		const avms = body.results.map((p: Json) => p.AVM);
		expect(avms).toEqual([...avms].sort((a, b) => b - a));
		expect(avms[0]).toBeGreaterThan(avms[avms.length - 1]);
		const unsorted = await search([{ name: 'City', value: ['Bend'] }], 'Purchase=0&Limit=1');
		expect(unsorted.totalResultCount).toBe(body.totalResultCount);
	});

	test('Sort by a date field orders by date, not as text (1/2/2020 after 12/1/2019)', async () => {
		const time = (date: string) => {
			const [month, day, year] = date.split('/').map(Number);
			return Date.UTC(year, month - 1, day);
		};
		for (const dir of ['asc', 'desc']) {
			const body = await search(
				[{ name: 'City', value: ['Bend'] }],
				`Purchase=1&Fields=PropID,LastTransferRecDate&Limit=200&Sort=LastTransferRecDate&Dir=${dir}`,
			);
			const dates: string[] = body.results
				.map((p: Json) => p.LastTransferRecDate)
				.filter((date: string | null) => date !== null);
			expect(dates.length).toBeGreaterThan(100);
			const times = dates.map(time);
			expect(times).toEqual([...times].sort((a, b) => (dir === 'asc' ? a - b : b - a)));
			// Unknown dates last, as any unknown value.
			const firstUnknown = body.results.findIndex((p: Json) => p.LastTransferRecDate === null);
			if (firstUnknown >= 0)
				expect(
					body.results.slice(firstUnknown).every((p: Json) => p.LastTransferRecDate === null),
				).toBe(true);
		}
	});

	test('criteria: values ORed within, criteria ANDed; ranges, booleans, nested PropertyType, begins-with', async () => {
		const body = await search(
			[
				{ name: 'ZipFive', value: [97201, 97202, 97203] },
				{ name: 'Beds', value: [[3, null]] },
				{ name: 'Pool', value: [0] },
				{ name: 'PropertyType', value: [{ name: 'PType', value: ['SFR', 'CND'] }] },
			],
			'Purchase=1&Fields=PropID,ZipFive,Beds,Pool,PType&Limit=200',
		);
		expect(body.results.length).toBeGreaterThan(0);
		for (const p of body.results) {
			expect([97201, 97202, 97203]).toContain(p.ZipFive);
			expect(p.Beds).toBeGreaterThanOrEqual(3);
			expect(p.Pool).toBe(0);
			expect(['SFR', 'CND']).toContain(p.PType);
		}
		const subject = await readProperty(sb, 'P000050');
		const prefix = subject.APN.slice(0, 5);
		const byApn = await search(
			[
				{ name: 'County', value: [subject.County] },
				{ name: 'APN', value: [prefix] },
			],
			'Purchase=1&Fields=PropID,APN',
		);
		expect(byApn.results.map((p: Json) => p.PropID)).toContain('P000050');
		for (const p of byApn.results) expect(p.APN.startsWith(prefix)).toBe(true);
	});

	test.each(['isSiteVacant', 'inTaxDelinquency'])(
		'%s: [1] finds exactly the properties whose record has it at 1, [0] exactly those at 0',
		async (field) => {
			const zip = [{ name: 'ZipFive', value: [97705] }];
			const everyone = await search(zip, `Purchase=1&Fields=PropID,${field}&Limit=500`);
			expect(everyone.results).toHaveLength(everyone.totalResultCount);
			const withValue = (value: number) =>
				everyone.results.filter((p: Json) => p[field] === value).map((p: Json) => p.PropID);
			expect(withValue(1).length).toBeGreaterThan(0);
			expect(withValue(0).length + withValue(1).length).toBe(everyone.totalResultCount);
			for (const value of [1, 0]) {
				const found = await search(
					[...zip, { name: field, value: [value] }],
					`Purchase=1&Fields=PropID,${field}&Limit=500`,
				);
				expect(found.results.map((p: Json) => p.PropID)).toEqual(withValue(value));
				for (const p of found.results) expect(p[field]).toBe(value);
			}
		},
	);

	test('InList selects the members of a list', async () => {
		const listId = await sb.createList({ ListName: 'Three', ListType: 'static' });
		await sb.ok('PUT', `/v1/lists/${listId}/items`, {
			body: { Criteria: [{ name: 'PropID', value: ['P000031', 'P000032', 'P000033'] }] },
		});
		const body = await search([{ name: 'InList', value: [listId] }], 'Purchase=1&Fields=PropID');
		expect(body.totalResultCount).toBe(3);
		expect(body.results.map((p: Json) => p.PropID)).toEqual(['P000031', 'P000032', 'P000033']);
	});

	test('Start, Limit and the like go in the query string, never in the body', async () => {
		expectError(
			await sb.api('POST', '/v1/properties?Purchase=0', {
				body: { Criteria: [{ name: 'State', value: ['OR'] }], Limit: 5 },
			}),
			400,
			'Unexpected payload field',
		);
	});
});

describe('charges in integer cents: free credits first, then the balance', () => {
	test('105 properties: 100 credits and 5 x $0.10; then a property detail at $0.25', async () => {
		const criteria = [{ name: 'State', value: ['TX'] }];
		const quote = await search(criteria, 'Purchase=0&Limit=105&Fields=PropID');
		expect(quote).toMatchObject({
			totalCost: '0.50',
			quantityFreeRemaining: 100,
			resultCount: 105,
		});

		const bought = await search(criteria, 'Purchase=1&Limit=105&Fields=PropID');
		expect(bought).toMatchObject({ totalCost: '0.50', resultCount: 105 });
		expect(bought.results).toHaveLength(105);
		let wallet = await sb.charges();
		expect(wallet).toMatchObject({ credits: 0, balanceCents: 500_000 - 50, balance: '4999.50' });
		expect(wallet.log.at(-1)).toMatchObject({
			kind: 'property',
			quantity: 105,
			creditsUsed: 100,
			cents: 50,
		});

		const detailQuote = await sb.ok('GET', '/v1/properties/P000001/transactions?Purchase=0');
		expect(detailQuote).toMatchObject({ totalCost: '0.25', quantityFreeRemaining: 0 });
		expect(await sb.ok('GET', '/v1/properties/P000001/transactions?Purchase=1')).toMatchObject({
			totalCost: '0.25',
		});
		wallet = await sb.charges();
		expect(wallet).toMatchObject({ credits: 0, balanceCents: 500_000 - 75, balance: '4999.25' });
		expect(Number.isInteger(wallet.balanceCents)).toBe(true);
	});
});

describe('property sub-resources', () => {
	/** The first PropID from P000001 whose sub-resource quotes `test(resultCount)`. */
	async function findProperty(path: string, test: (count: number) => boolean): Promise<string> {
		for (let i = 1; i <= 200; i++) {
			const propId = `P${String(i).padStart(6, '0')}`;
			const quote = await sb.ok('GET', `/v1/properties/${propId}/${path}?Purchase=0`);
			if (test(quote.resultCount)) return propId;
		}
		throw new Error(`no property among the first 200 has such ${path}`);
	}

	test('evictions: records of the property, one charge per call that returns data, none when there are none', async () => {
		const withEvictions = await findProperty('evictions', (n) => n > 0);
		const before = await sb.charges();
		const body = await sb.ok('GET', `/v1/properties/${withEvictions}/evictions?Purchase=1`);
		expect(body.results.length).toBe(body.resultCount);
		expect(body.results.length).toBeGreaterThan(0);
		expect(body).toHaveProperty('totalCost');
		const after = await sb.charges();
		expect(after.log.slice(before.log.length)).toEqual([
			expect.objectContaining({ kind: 'propertyDetail', quantity: 1 }),
		]);

		const without = await findProperty('evictions', (n) => n === 0);
		const none = await sb.ok('GET', `/v1/properties/${without}/evictions?Purchase=1`);
		expect(none).toMatchObject({ results: [], resultCount: 0, totalCost: '0.00' });
		expect((await sb.charges()).log).toHaveLength(after.log.length);
	});

	test("comps/sales and comps/forsale: comparables from the subject's city, not the subject itself", async () => {
		const subject = await readProperty(sb, 'P000020');
		for (const [path, price] of [
			['comps/sales', 'SalePrice'],
			['comps/forsale', 'ListingPrice'],
		]) {
			const quote = await sb.ok('GET', `/v1/properties/P000020/${path}?Purchase=0`);
			expect(quote).toMatchObject({
				results: [],
				totalCost: expect.any(String),
				resultCount: expect.any(Number),
			});
			const body = await sb.ok('GET', `/v1/properties/P000020/${path}?Purchase=1`);
			expect(body.results.length).toBe(quote.resultCount);
			expect(body.results.length).toBeGreaterThan(0);
			for (const comp of body.results) {
				expect(comp.City).toBe(subject.City);
				expect(comp.PropID).not.toBe('P000020');
				expect(typeof comp[price]).toBe('number');
			}
		}
	});

	test("comps: query parameters override the subject's values", async () => {
		const subject = await readProperty(sb, 'P000020');
		expect(subject.Beds).not.toBeNull();
		const mean = (rows: Json[]) => rows.reduce((sum, row) => sum + row.Beds, 0) / rows.length;
		const small = (
			await sb.ok('GET', '/v1/properties/P000020/comps/sales?Purchase=1&Beds=1')
		).results.filter((c: Json) => c.Beds !== null);
		const large = (
			await sb.ok('GET', '/v1/properties/P000020/comps/sales?Purchase=1&Beds=6')
		).results.filter((c: Json) => c.Beds !== null);
		expect(small.length).toBeGreaterThan(0);
		expect(large.length).toBeGreaterThan(0);
		expect(mean(large)).toBeGreaterThan(mean(small));
		expectError(
			await sb.api('GET', '/v1/properties/P000020/comps/sales?Purchase=0&Beds=three'),
			400,
		);
	});

	test('parcels: GeoJSON features of the property; a parcel in several pieces returns them all', async () => {
		const split = await findProperty('parcels', (n) => n > 1);
		const body = await sb.ok('GET', `/v1/properties/${split}/parcels?Purchase=1`);
		expect(body.resultCount).toBe(body.results.length);
		expect(body.results.length).toBeGreaterThan(1);
		for (const feature of body.results) {
			expect(feature).toMatchObject({
				type: 'Feature',
				geometry: { type: 'Polygon' },
				properties: { PropID: split, pieces: body.results.length },
			});
			const ring = feature.geometry.coordinates[0];
			expect(ring[0]).toEqual(ring[ring.length - 1]);
		}
		expect(body.results.map((feature: Json) => feature.properties.piece).sort()).toEqual(
			Array.from({ length: body.results.length }, (_, i) => i + 1),
		);
	});

	test('transactions: the Standard fieldset by default; custom field IDs, at most 50', async () => {
		const standard = await sb.ok('GET', '/v1/properties/P000021/transactions?Purchase=1');
		expect(standard.results.length).toBeGreaterThan(0);
		for (const record of standard.results) {
			expect(sorted(Object.keys(record))).toEqual(
				sorted([
					'TransactionID',
					'RecordingDate',
					'DocumentType',
					'DocumentNumber',
					'Amount',
					'Buyer',
					'Seller',
					'Lender',
					'LoanAmount',
					'LoanType',
				]),
			);
		}
		const ids = (n: number) => Array.from({ length: n }, (_, i) => `cf${i + 1}`);
		const fifty = await sb.ok(
			'GET',
			`/v1/properties/P000021/transactions?Purchase=1&Fields=TransactionID,${ids(50).join(',')}`,
		);
		for (const record of fifty.results) {
			expect(record.TransactionID).toEqual(expect.any(String));
			expect(Object.keys(record).filter((key) => key !== 'TransactionID')).toHaveLength(50);
		}
		expectError(
			await sb.api(
				'GET',
				`/v1/properties/P000021/transactions?Purchase=1&Fields=${ids(51).join(',')}`,
			),
			400,
		);
	});

	test('transactions: a leading - suppresses a field, a fieldset or a custom field ID (the property document)', async () => {
		const read = async (fields: string) =>
			(await sb.ok('GET', `/v1/properties/P000021/transactions?Purchase=1&Fields=${fields}`))
				.results as Json[];
		const suppressed = await read('Standard,-Buyer,-Seller');
		const standard = await read('Standard');
		expect(suppressed.map((record) => sorted(Object.keys(record)))).toEqual(
			standard.map((record) =>
				sorted(Object.keys(record).filter((key) => key !== 'Buyer' && key !== 'Seller')),
			),
		);
		// Suppression alone: the default (Standard) without the suppressed field.
		expect((await read('-Buyer')).map((record) => sorted(Object.keys(record)))).toEqual(
			standard.map((record) => sorted(Object.keys(record).filter((key) => key !== 'Buyer'))),
		);
		// A suppressed fieldset takes all its fields out.
		for (const record of await read('Standard,cf1,-Standard'))
			expect(Object.keys(record)).toEqual(['Custom_cf1']);
		// A custom field ID asked for and suppressed is not returned.
		for (const record of await read('TransactionID,cf1,cf2,-cf2'))
			expect(sorted(Object.keys(record))).toEqual(['Custom_cf1', 'TransactionID']);
		expectError(
			await sb.api('GET', '/v1/properties/P000021/transactions?Purchase=1&Fields=Standard,-Bu-yer'),
			400,
		);
	});

	test('a property read or search without Purchase is 400 naming it, and charges nothing (docs/api.md)', async () => {
		const before = await sb.charges();
		for (const [method, path, body] of [
			['GET', '/v1/properties/P000001', undefined],
			['GET', '/v1/properties/P000001?Fields=Overview', undefined],
			['POST', '/v1/properties?Limit=5', { Criteria: [{ name: 'State', value: ['OR'] }] }],
		] as const) {
			const refused = expectError(await sb.api(method, path, { body }), 400, 'Invalid Purchase');
			expect(refused.message).toBe('Purchase is required: 0 previews the cost, 1 buys');
		}
		expect(await sb.charges()).toEqual(before);
	});

	test('each sub-resource requires Purchase and answers 404 for an unknown PropID', async () => {
		for (const path of ['evictions', 'comps/sales', 'comps/forsale', 'parcels', 'transactions']) {
			expectError(await sb.api('GET', `/v1/properties/P000001/${path}`), 400);
			expectError(
				await sb.api('GET', `/v1/properties/P999999/${path}?Purchase=0`),
				404,
				'Resource does not exist for given id',
			);
		}
	});
});
