import { useSandbox } from './helpers';

// The start-up option: a sandbox started with variants (the CLI's `--variant a,b`) has them from the start.
const sb = useSandbox({ sandbox: { variants: ['money-numbers', 'short-page'] } });

test('a sandbox started with variants answers with them from its first call', async () => {
	expect((await sb.ok('GET', '/_sandbox/variants', { token: null })).variants).toEqual([
		'money-numbers',
		'short-page',
	]);
	const quote = await sb.ok('POST', '/v1/properties?Purchase=0&Limit=25', {
		body: { Criteria: [{ name: 'State', value: ['OR'] }] },
	});
	expect(quote).toMatchObject({ totalCost: 0, resultCount: 20 });
});
