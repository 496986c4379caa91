import { expectError, readProperty, useSandbox, type Json } from './helpers';

const sb = useSandbox();

const comps = async (query: string): Promise<Json[]> =>
	(await sb.ok('GET', `/v1/properties/P000020/comps/sales?Purchase=1${query}`)).results;
const ids = (rows: Json[]) => rows.map((row) => row.PropID as string);
const mean = (rows: Json[], field: string) =>
	rows.reduce((sum, row) => sum + Number(row[field]), 0) / rows.length;

describe('comps: every subject override the sandbox accepts changes the comparables', () => {
	test("Bath (the document's name) and Baths (the same override) pick comparables with about that many baths", async () => {
		const subject = await readProperty(sb, 'P000020', 'PropID,Baths,Beds,YearBuilt,SqFt');
		expect(subject.Baths).not.toBeNull();
		const few = await comps('&Bath=1');
		const many = await comps('&Bath=4');
		expect(few.length).toBeGreaterThan(0);
		expect(many.length).toBeGreaterThan(0);
		for (const comp of few) if (comp.Baths !== null) expect(comp.Baths).toBeLessThanOrEqual(2);
		for (const comp of many) if (comp.Baths !== null) expect(comp.Baths).toBeGreaterThanOrEqual(3);
		expect(mean(many, 'Baths')).toBeGreaterThan(mean(few, 'Baths'));
		expect(ids(await comps('&Baths=4'))).toEqual(ids(many));
		expect(ids(await comps('&Bath=4&Baths=4'))).toEqual(ids(many));
		expectError(
			await sb.api('GET', '/v1/properties/P000020/comps/sales?Purchase=0&Bath=1&Baths=3'),
			400,
			'Invalid Bath',
		);
		expectError(
			await sb.api('GET', '/v1/properties/P000020/comps/sales?Purchase=0&Bath=two'),
			400,
			'Invalid Bath',
		);
	});

	test('YearBuilt picks comparables built within 20 years of it', async () => {
		const old = await comps('&YearBuilt=1915');
		const recent = await comps('&YearBuilt=2015');
		expect(old.length).toBeGreaterThan(0);
		expect(recent.length).toBeGreaterThan(0);
		for (const comp of old)
			if (comp.YearBuilt !== null) expect(comp.YearBuilt).toBeLessThanOrEqual(1935);
		for (const comp of recent)
			if (comp.YearBuilt !== null) expect(comp.YearBuilt).toBeGreaterThanOrEqual(1995);
	});

	test('for-sale comparables follow the same overrides', async () => {
		const few = (await sb.ok('GET', '/v1/properties/P000020/comps/forsale?Purchase=1&Bath=1'))
			.results as Json[];
		const many = (await sb.ok('GET', '/v1/properties/P000020/comps/forsale?Purchase=1&Bath=4'))
			.results as Json[];
		expect(ids(few)).not.toEqual(ids(many));
	});
});
