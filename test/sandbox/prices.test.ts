/**
 * The sandbox's own prices (the documents give none, and the node's table is what the node
 * assumes): every account's at start, and each account's own once set through the control routes.
 */
import { expectError, TOKENS, useSandbox } from './helpers';

const sb = useSandbox();

const setPrices = (pricesCents: unknown, token: string = TOKENS.main) =>
	sb.api('PUT', '/_sandbox/prices', { token: null, body: { token, pricesCents } });

test("every account starts with the sandbox's prices", async () => {
	const prices = await sb.ok('GET', `/_sandbox/prices?token=${TOKENS.second}`, { token: null });
	expect(prices).toEqual({
		account: 'acct-2',
		pricesCents: {
			property: 10,
			propertyDetail: 25,
			person: 15,
			personRecord: 20,
			phone: 40,
			email: 30,
			importRecord: 5,
		},
	});
});

test("prices set for one account are what its quotes and purchases cost; another account's stay, and a reset restores them", async () => {
	const set = await setPrices({ property: 37, person: 4 });
	expect(set.status).toBe(200);
	expect(set.body.pricesCents).toMatchObject({ property: 37, person: 4, propertyDetail: 25 });
	// Past the free credits: 101 properties, 100 paid by credits, one at the account's price.
	const search = (token: string, purchase: 0 | 1) =>
		sb.ok('POST', `/v1/properties?Purchase=${purchase}&Limit=101`, {
			token,
			body: { Criteria: [{ name: 'State', value: ['OR'] }] },
		});
	expect((await search(TOKENS.main, 0)).totalCost).toBe('0.37');
	expect((await search(TOKENS.second, 0)).totalCost).toBe('0.10');
	expect((await search(TOKENS.main, 1)).totalCost).toBe('0.37');
	const log = (await sb.charges()).log;
	expect(log[log.length - 1]).toMatchObject({
		kind: 'property',
		quantity: 101,
		creditsUsed: 100,
		cents: 37,
	});
	await sb.reset();
	expect(
		(await sb.ok('GET', `/_sandbox/prices?token=${TOKENS.main}`, { token: null })).pricesCents
			.property,
	).toBe(10);
});

test('an account without free credits pays each record at its price from the first', async () => {
	await setPrices({ phone: 55, personRecord: 3 }, TOKENS.broke);
	expect(
		(await sb.ok('POST', '/v1/persons/K000001A/Phone?Purchase=0', { token: TOKENS.broke }))
			.totalCost,
	).toBe('0.55');
	const relatives = await sb.ok('GET', '/v1/persons/K000001A/relatives?Purchase=0', {
		token: TOKENS.broke,
	});
	expect(relatives.resultCount).toBeGreaterThan(0);
	expect(relatives.totalCost).toBe((relatives.resultCount * 0.03).toFixed(2));
});

test.each([
	[{ property: -1 }, /property must be a whole number of cents/],
	[{ property: 1.5 }, /property must be a whole number of cents/],
	[{ property: '10' }, /property must be a whole number of cents/],
	[{ coffee: 3 }, /Unknown kind "coffee"/],
	[{ constructor: 3 }, /Unknown kind "constructor"/],
	[[10], /pricesCents must be an object/],
])('refuses %j, naming the field', async (prices, message) => {
	expect(expectError(await setPrices(prices), 400, 'Invalid pricesCents').message).toMatch(message);
});

test('refuses a token of no account', async () => {
	expectError(await setPrices({ property: 1 }, TOKENS.invalid), 400, 'Unknown account');
});
