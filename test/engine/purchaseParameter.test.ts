import type { IDataObject } from 'n8n-workflow';

import { runOk, useEngineSandbox } from '../support/helpers';

/**
 * The property document's input table gives no `Purchase` for the property reads, and the sandbox
 * answers 400 naming it when a read comes without one (docs/api.md): the node sends `Purchase` on
 * every request to a charging endpoint, 0 for the quote and 1 for the purchase, in both charge modes.
 */
const sb = useEngineSandbox();

const CHARGED: Array<[string, IDataObject]> = [
	['Property > Get', { resource: 'property', operation: 'get', propId: 'P000060' }],
	[
		'Property > Search',
		{
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"PropID","value":["P000060","P000061"]}]',
			returnAll: true,
		},
	],
	[
		'Property > Get Evictions',
		{ resource: 'property', operation: 'getEvictions', propId: 'P000060' },
	],
	[
		'Property > Get Comps',
		{ resource: 'property', operation: 'getComps', propId: 'P000060', compsKind: 'forsale' },
	],
	['Property > Get Parcels', { resource: 'property', operation: 'getParcels', propId: 'P000060' }],
	[
		'Property > Get Transactions',
		{ resource: 'property', operation: 'getTransactions', propId: 'P000060' },
	],
	['Person > Get Owners', { resource: 'person', operation: 'getOwners', propId: 'P000060' }],
	[
		'Person > Get Records',
		{
			resource: 'person',
			operation: 'getRecords',
			personKey: 'K000010A',
			recordKind: 'relatives',
			returnAll: true,
		},
	],
];

test.each(CHARGED)(
	'%s sends Purchase on every request, previewing and buying',
	async (_, parameters) => {
		for (const charge of [{ chargeMode: 'preview' }, { chargeMode: 'purchase', maxCost: 20 }]) {
			const before = sb.requests.length;
			await runOk(sb, { ...parameters, ...charge });
			const sent = sb.requests.slice(before);
			expect(sent.length).toBeGreaterThan(0);
			const purchases = sent.map((request) => request.query.getAll('Purchase'));
			expect(
				purchases.every((values) => values.length === 1 && ['0', '1'].includes(values[0])),
			).toBe(true);
			if (charge.chargeMode === 'purchase') expect(purchases.flat()).toContain('1');
			else expect(purchases.flat()).not.toContain('1');
		}
	},
);
