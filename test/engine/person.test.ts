import type { IDataObject } from 'n8n-workflow';

import { TOKENS } from './harness';
import { run, runOk, sandboxCharges, useEngineSandbox } from './helpers';

const sb = useEngineSandbox();
const charges = async () => (await sandboxCharges(sb)).log;
const buying = { chargeMode: 'purchase', maxCost: 5 };
const ownersOf = (propId: string, parameters: IDataObject = buying) => ({
	resource: 'person',
	operation: 'getOwners',
	propId,
	...parameters,
});
const purchase = (
	operation: 'purchasePhone' | 'purchaseEmail',
	personKey: string,
	parameters: IDataObject = buying,
) => ({ resource: 'person', operation, personKey, ...parameters });

describe('Person', () => {
	test('owners: preview, purchase with fieldsets and suppression', async () => {
		const [quote] = await runOk(sb, ownersOf('P000500', { chargeMode: 'preview' }));
		expect(quote).toMatchObject({ preview: true, PropID: 'P000500' });
		const owners = await runOk(
			sb,
			ownersOf('P000500', { fields: { fieldsets: ['overview'], exclude: ['Email'] }, ...buying }),
		);
		expect(owners.length).toBe(quote.resultCount);
		expect(owners[0]).toHaveProperty('PersonKey');
		expect(owners[0]).toHaveProperty('Phone');
		expect(owners[0]).not.toHaveProperty('Email');
		expect(owners[0]).not.toHaveProperty('MailAddress');
	});

	test('purchase a phone, then buying it again is a clear result, not a crash; the phone shows in the owners', async () => {
		const asSecond = (parameters: IDataObject) => runOk(sb, parameters, undefined, TOKENS.second);
		const [owner] = await asSecond(ownersOf('P000600'));
		const key = String(owner.PersonKey);
		const [bought] = await asSecond(purchase('purchasePhone', key));
		expect(bought).toMatchObject({ PersonKey: key, purchased: true });
		expect((bought.Phone as unknown[]).length).toBe(1);
		const [again] = await asSecond(purchase('purchasePhone', key));
		expect(again).toMatchObject({ PersonKey: key, purchased: false, alreadyPurchased: true });
		expect(
			sb.sent(`/v1/persons/${key}/Phone`).filter((r) => r.query.get('Purchase') === '1'),
		).toHaveLength(1);
		const owners = await asSecond(
			ownersOf('P000600', { fields: { include: ['Phone'] }, ...buying }),
		);
		expect((owners.find((o) => o.PersonKey === key)!.Phone as unknown[]).length).toBe(1);
		const [email] = await asSecond(purchase('purchaseEmail', key, { chargeMode: 'preview' }));
		expect(email).toMatchObject({ preview: true, purchase: 'Email', resultCount: 1 });
	});

	test('purchase an e-mail: the preview charges nothing, the purchase buys it once, buying it again is a clear result; the e-mail shows in the owners', async () => {
		const [owner] = await runOk(sb, ownersOf('P000610'));
		const key = String(owner.PersonKey);
		expect(owner.Email).toEqual([]);

		const beforePreview = (await charges()).length;
		const [quote] = await runOk(sb, purchase('purchaseEmail', key, { chargeMode: 'preview' }));
		expect(quote).toMatchObject({
			PersonKey: key,
			preview: true,
			purchase: 'Email',
			resultCount: 1,
			totalCost: expect.any(String),
		});
		expect(await charges()).toHaveLength(beforePreview);
		expect(
			sb.sent(`/v1/persons/${key}/Email`).filter((r) => r.query.get('Purchase') === '1'),
		).toHaveLength(0);

		const [bought] = await runOk(sb, purchase('purchaseEmail', key));
		expect(bought).toMatchObject({ PersonKey: key, PropID: 'P000610', purchased: true });
		const email = bought.Email as Array<{ linktext: string; href: string }>;
		expect(email).toHaveLength(1);
		expect(email[0].href).toBe(`mailto:${email[0].linktext}`);
		const afterPurchase = await charges();
		expect(afterPurchase.slice(beforePreview)).toEqual([
			expect.objectContaining({ kind: 'email', quantity: 1, what: `email of ${key}` }),
		]);
		expect((bought._charge as { totalCost: string }).totalCost).toBe(
			(afterPurchase.at(-1)!.cents / 100).toFixed(2),
		);
		expect(quote.totalCost).toBe((bought._charge as { totalCost: string }).totalCost);

		const [again] = await runOk(sb, purchase('purchaseEmail', key));
		expect(again).toMatchObject({ PersonKey: key, purchased: false, alreadyPurchased: true });
		expect(again.message).toContain('e-mail address');
		expect(again.message).toContain('nothing was charged');
		expect(again).not.toHaveProperty('Email');
		expect(await charges()).toHaveLength(afterPurchase.length);
		expect(
			sb.sent(`/v1/persons/${key}/Email`).filter((r) => r.query.get('Purchase') === '1'),
		).toHaveLength(1);

		const owners = await runOk(
			sb,
			ownersOf('P000610', { fields: { include: ['Email', 'Phone'] }, ...buying }),
		);
		const after = owners.find((o) => o.PersonKey === key)!;
		expect(after.Email).toEqual(email);
		expect(after.Phone).toEqual([]);
		const others = await runOk(
			sb,
			ownersOf('P000610', { fields: { include: ['Email'] }, ...buying }),
			undefined,
			TOKENS.second,
		);
		expect(others.find((o) => o.PersonKey === key)!.Email).toEqual([]);
	});

	test('a service whose quote of a bought phone counts nothing to buy (0 records, $0.00): no purchase is sent, and the item says nothing was bought or charged', async () => {
		const [owner] = await runOk(sb, ownersOf('P000620'));
		const key = String(owner.PersonKey);
		await runOk(sb, purchase('purchasePhone', key));
		const before = await charges();
		// The sandbox refuses the quote of a bought phone too; this service quotes it as nothing to buy.
		sb.faults.push({
			pathPrefix: `/v1/persons/${key}/Phone`,
			query: { Purchase: '0' },
			count: 1,
			status: 200,
			body: { results: [], resultCount: 0, totalCost: '0.00', quantityFreeRemaining: 0 },
		});
		const [again] = await runOk(sb, purchase('purchasePhone', key));
		expect(again).toMatchObject({
			PersonKey: key,
			purchased: false,
			_charge: { totalCost: '0.00', resultCount: 0 },
		});
		expect(again.message).toBe(
			`No phone number of ${key} was bought: PropRadar had none to sell, and nothing was charged. One bought before is in the Phone field of Person > Get Owners for the person's property.`,
		);
		expect(
			sb.sent(`/v1/persons/${key}/Phone`).filter((r) => r.query.get('Purchase') === '1'),
		).toHaveLength(1);
		expect(await charges()).toEqual(before);
	});

	test('records of each kind, charged, with their fieldsets', async () => {
		const recordsOf = (personKey: string, recordKind: string, parameters: IDataObject) => ({
			resource: 'person',
			operation: 'getRecords',
			personKey,
			recordKind,
			returnAll: true,
			...parameters,
		});
		for (const kind of ['bankruptcies', 'divorces', 'liens', 'probates', 'relatives']) {
			const records = await runOk(sb, recordsOf('K000010A', kind, buying));
			for (const record of records) expect(record.PersonKey).toBe('K000010A');
		}
		const preview = { chargeMode: 'preview' };
		const [quote] = await runOk(sb, recordsOf('K000010A', 'liens', preview));
		expect(quote).toMatchObject({ preview: true, records: 'liens' });
		const unknown = await run(sb, recordsOf('NOPE', 'liens', preview));
		expect(unknown.error?.httpCode).toBe('404');
	});

	test('sandbox-broke: a 402 on a purchase, with what to do', async () => {
		const result = await run(sb, ownersOf('P000700'), undefined, TOKENS.broke);
		expect(result.error?.httpCode).toBe('402');
		expect(result.error?.description).toContain('Nothing was charged');
	});
});
