import { TOKENS } from '../../support/harness';
import {
	buyingPersons,
	ownersOf,
	purchaseContactOf,
	runOk,
	sandboxCharges,
	useEngineSandbox,
} from '../../support/helpers';

const sb = useEngineSandbox();
const charges = async () => (await sandboxCharges(sb)).log;
const buying = buyingPersons;
const purchase = purchaseContactOf;

describe('Person', () => {
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
});
