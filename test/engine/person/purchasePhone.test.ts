import type { IDataObject } from 'n8n-workflow';

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
});
