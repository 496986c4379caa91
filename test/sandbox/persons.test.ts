import { personFieldset } from '../support/apiDocuments';
import { expectError, freeQuote, TOKENS, useSandbox, type Json } from './helpers';

const sb = useSandbox();

/** Person fieldsets of the lists document. */
const DEFAULT = personFieldset('default');
const OVERVIEW = personFieldset('overview');
const KINDS = ['bankruptcies', 'divorces', 'liens', 'probates', 'relatives'];

const sorted = (values: string[]) => [...values].sort();

async function owners(propId: string, query = ''): Promise<Json[]> {
	return (await sb.ok('GET', `/v1/properties/${propId}/persons?Purchase=1${query}`)).results;
}

describe('GET /v1/properties/{PropID}/persons', () => {
	test('Purchase=0 quotes: no records, totalCost, quantityFreeRemaining, resultCount; nothing charged', async () => {
		const before = await sb.charges();
		const quote = await sb.ok('GET', '/v1/properties/P000042/persons?Purchase=0');
		expect(quote).toMatchObject(freeQuote(before.credits));
		expect(quote.resultCount).toBeGreaterThanOrEqual(1);
		expect(quote.resultCount).toBeLessThanOrEqual(3);
		expect(await sb.charges()).toEqual(before);

		const bought = await sb.ok('GET', '/v1/properties/P000042/persons?Purchase=1');
		expect(bought.results).toHaveLength(quote.resultCount);
		expect(bought.resultCount).toBe(quote.resultCount);
		const after = await sb.charges();
		expect(after.credits).toBe(before.credits - quote.resultCount);
		expect(after.log.at(-1)).toMatchObject({ kind: 'person', quantity: quote.resultCount });
	});

	test('by default the default fieldset, with PropID, PersonKey and PersonType; one primary contact', async () => {
		const persons = await owners('P000043');
		for (const person of persons) {
			expect(sorted(Object.keys(person))).toEqual(
				sorted(['PropID', 'PersonKey', 'PersonType', ...DEFAULT]),
			);
			expect(person.PropID).toBe('P000043');
			expect(['Person', 'Company', 'Entity', 'Trust']).toContain(person.PersonType);
			expect(['Owner', 'Principal', 'Trustee']).toContain(person.OwnershipRole);
			expect([0, 1]).toContain(person.isPrimaryContact);
		}
		expect(persons.filter((person) => person.isPrimaryContact === 1)).toHaveLength(1);
		expect(new Set(persons.map((person) => person.PersonKey)).size).toBe(persons.length);
	});

	test('Fields: the overview fieldset, single fields, and - suppression', async () => {
		for (const person of await owners('P000044', '&Fields=overview')) {
			expect(sorted(Object.keys(person))).toEqual(sorted(['PropID', 'PersonKey', ...OVERVIEW]));
		}
		for (const person of await owners('P000044', '&Fields=FirstName,LastName')) {
			expect(sorted(Object.keys(person))).toEqual(
				sorted(['PropID', 'PersonKey', 'FirstName', 'LastName']),
			);
		}
		for (const person of await owners('P000044', '&Fields=overview,-Phone,-Email,-Age')) {
			expect(sorted(Object.keys(person))).toEqual(
				sorted([
					'PropID',
					'PersonKey',
					...OVERVIEW.filter((f) => !['Phone', 'Email', 'Age'].includes(f)),
				]),
			);
		}
		expectError(
			await sb.api('GET', '/v1/properties/P000044/persons?Purchase=1&Fields=ShoeSize'),
			400,
		);
	});

	test('Purchase is required; an unknown PropID is 404', async () => {
		expectError(await sb.api('GET', '/v1/properties/P000044/persons'), 400);
		expectError(
			await sb.api('GET', '/v1/properties/P999999/persons?Purchase=0'),
			404,
			'Resource does not exist for given id',
		);
	});
});

describe('person records', () => {
	/** The first person of P000001.. whose records of this kind quote at least one. */
	async function personWith(kind: string): Promise<{ personKey: string; count: number }> {
		for (let i = 1; i <= 200; i++) {
			const personKey = `K${String(i).padStart(6, '0')}A`;
			const quote = await sb.ok('GET', `/v1/persons/${personKey}/${kind}?Purchase=0`);
			if (quote.resultCount > 0) return { personKey, count: quote.resultCount };
		}
		throw new Error(`no person among the first 200 has ${kind}`);
	}

	test.each(KINDS)(
		'%s: preview, then purchase returns the quoted records of that person',
		async (kind) => {
			const { personKey, count } = await personWith(kind);
			const before = await sb.charges();
			const body = await sb.ok('GET', `/v1/persons/${personKey}/${kind}?Purchase=1`);
			expect(body.results).toHaveLength(count);
			expect(body).toMatchObject({ resultCount: count, totalCost: expect.any(String) });
			for (const record of body.results) expect(record.PersonKey).toBe(personKey);
			const after = await sb.charges();
			expect(after.log.slice(before.log.length)).toEqual([
				expect.objectContaining({ kind: 'personRecord', quantity: count }),
			]);
		},
	);

	test('bankruptcies come with the Table fieldset of the lists document', async () => {
		const { personKey } = await personWith('bankruptcies');
		const body = await sb.ok('GET', `/v1/persons/${personKey}/bankruptcies?Purchase=1`);
		for (const record of body.results) {
			expect(sorted(Object.keys(record))).toEqual(
				sorted([
					'PersonKey',
					'BankruptcyID',
					'BankruptcyCaseNumber',
					'BankruptcyRecordingDate',
					'BankruptcyChapter',
					'BankruptcyStatus',
				]),
			);
		}
		const slim = await sb.ok(
			'GET',
			`/v1/persons/${personKey}/bankruptcies?Purchase=1&Fields=BankruptcyID`,
		);
		for (const record of slim.results)
			expect(sorted(Object.keys(record))).toEqual(['BankruptcyID', 'PersonKey']);
	});

	test('Start and Limit page the records', async () => {
		let found: { personKey: string; all: Json[] } | undefined;
		for (let i = 1; i <= 200 && !found; i++) {
			const personKey = `K${String(i).padStart(6, '0')}A`;
			const quote = await sb.ok('GET', `/v1/persons/${personKey}/relatives?Purchase=0`);
			if (quote.resultCount >= 3)
				found = {
					personKey,
					all: (await sb.ok('GET', `/v1/persons/${personKey}/relatives?Purchase=1`)).results,
				};
		}
		expect(found).toBeDefined();
		const { personKey, all } = found!;
		const page = await sb.ok(
			'GET',
			`/v1/persons/${personKey}/relatives?Purchase=1&Start=1&Limit=2`,
		);
		expect(page.results).toEqual(all.slice(1, 3));
		expect(page.resultCount).toBe(2);
	});

	test('an unknown PersonKey is 404 on every records route', async () => {
		for (const kind of KINDS)
			expectError(await sb.api('GET', `/v1/persons/K999999Z/${kind}?Purchase=0`), 404);
	});
});

describe('POST /v1/persons/{PersonKey}/Phone and /Email', () => {
	test('Purchase=0 quotes; nothing bought, nothing charged', async () => {
		const before = await sb.charges();
		const quote = await sb.ok('POST', '/v1/persons/K000061A/Phone?Purchase=0');
		expect(quote).toMatchObject({ ...freeQuote(before.credits), resultCount: 1 });
		expect(await sb.charges()).toEqual(before);
		const [person] = (await owners('P000061', '&Fields=Phone')).filter(
			(p) => p.PersonKey === 'K000061A',
		);
		expect(person.Phone).toEqual([]);
	});

	test('a bought phone shows in the persons endpoint; buying it again is 400 "already purchased" and charges nothing', async () => {
		const bought = await sb.ok('POST', '/v1/persons/K000062A/Phone?Purchase=1');
		expect(bought).toMatchObject({ resultCount: 1, totalCost: expect.any(String) });
		const phone = bought.results[0].Phone;
		expect(phone).toHaveLength(1);
		expect(phone[0]).toMatchObject({
			href: `tel:${phone[0].linktext}`,
			phoneType: expect.stringMatching(/^(mobile|landline|other)$/),
		});

		const [person] = (await owners('P000062', '&Fields=Phone')).filter(
			(p) => p.PersonKey === 'K000062A',
		);
		expect(person.Phone).toEqual(phone);

		const charged = await sb.charges();
		const again = expectError(await sb.api('POST', '/v1/persons/K000062A/Phone?Purchase=1'), 400);
		expect(again.error).toMatch(/already purchased/);
		expect(await sb.charges()).toEqual(charged);
	});

	test('an e-mail bought after the free credits costs $0.30 of the balance', async () => {
		await sb.ok('POST', '/v1/properties?Purchase=1&Limit=100&Fields=PropID', {
			body: { Criteria: [{ name: 'State', value: ['FL'] }] },
		});
		expect((await sb.charges()).credits).toBe(0);
		const quote = await sb.ok('POST', '/v1/persons/K000063A/Email?Purchase=0');
		expect(quote).toMatchObject({ totalCost: '0.30', quantityFreeRemaining: 0 });
		const bought = await sb.ok('POST', '/v1/persons/K000063A/Email?Purchase=1');
		expect(bought).toMatchObject({ totalCost: '0.30', resultCount: 1 });
		expect(bought.results[0].Email).toEqual([
			expect.objectContaining({
				href: 'mailto:k000063a@mail.example',
				linktext: 'k000063a@mail.example',
			}),
		]);
		expect(await sb.charges()).toMatchObject({ balanceCents: 500_000 - 30, balance: '4999.70' });
		const [person] = (await owners('P000063', '&Fields=Email')).filter(
			(p) => p.PersonKey === 'K000063A',
		);
		expect(person.Email[0].linktext).toBe('k000063a@mail.example');
	});

	test('purchases belong to the account that made them', async () => {
		await sb.ok('POST', '/v1/persons/K000064A/Email?Purchase=1');
		const other = (
			await sb.ok('GET', '/v1/properties/P000064/persons?Purchase=1&Fields=Email', {
				token: TOKENS.second,
			})
		).results;
		expect(other.find((p: Json) => p.PersonKey === 'K000064A').Email).toEqual([]);
		expect(
			(await sb.ok('POST', '/v1/persons/K000064A/Email?Purchase=1', { token: TOKENS.second }))
				.results[0].Email,
		).toHaveLength(1);
	});

	test('Purchase is required; an unknown PersonKey is 404', async () => {
		expectError(await sb.api('POST', '/v1/persons/K000065A/Phone'), 400);
		expectError(await sb.api('POST', '/v1/persons/K999999Z/Phone?Purchase=0'), 404);
		expectError(await sb.api('POST', '/v1/persons/K999999Z/Email?Purchase=0'), 404);
	});
});
