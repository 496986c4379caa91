import { runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

const comps = (subject: Record<string, number>) =>
	runOk(sb, {
		resource: 'property',
		operation: 'getComps',
		propId: 'P000020',
		compsKind: 'sales',
		subject,
		chargeMode: 'purchase',
		maxCost: 5,
	});

test('Get Comps sends the Baths override under the documented name Bath, and it changes the comparables', async () => {
	const few = await comps({ Baths: 1 });
	const sent = sb
		.sent('/v1/properties/P000020/comps/sales')
		.filter((r) => r.query.get('Purchase') === '1')
		.at(-1)!;
	expect(sent.query.get('Bath')).toBe('1');
	expect(sent.query.has('Baths')).toBe(false);
	const many = await comps({ Baths: 4 });
	expect(few.length).toBeGreaterThan(0);
	expect(many.length).toBeGreaterThan(0);
	for (const comp of few)
		if (comp.Baths !== null) expect(Number(comp.Baths)).toBeLessThanOrEqual(2);
	for (const comp of many)
		if (comp.Baths !== null) expect(Number(comp.Baths)).toBeGreaterThanOrEqual(3);
});

test('Get Comps: the Year Built override changes the comparables', async () => {
	const old = await comps({ YearBuilt: 1915 });
	expect(sb.sent('/v1/properties/P000020/comps/sales').at(-1)!.query.get('YearBuilt')).toBe('1915');
	const recent = await comps({ YearBuilt: 2015 });
	for (const comp of old)
		if (comp.YearBuilt !== null) expect(Number(comp.YearBuilt)).toBeLessThanOrEqual(1935);
	for (const comp of recent)
		if (comp.YearBuilt !== null) expect(Number(comp.YearBuilt)).toBeGreaterThanOrEqual(1995);
	expect(old.map((comp) => comp.PropID)).not.toEqual(recent.map((comp) => comp.PropID));
});
