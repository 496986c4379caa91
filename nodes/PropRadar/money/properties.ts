import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readChoice } from '../shared/parameters';
export type ChargeMode = 'preview' | 'purchase';

// `'quote'` while the router quotes every item of a purchase run before buying anything (docs/money.md,
// rule 2); `'charge'` in the item loop, where Charge Mode decides.
export type ChargePass = 'quote' | 'charge';

export function chargeProperties(show: Record<string, string[]>, what: string): INodeProperties[] {
	return [
		{
			displayName: 'Charge Mode',
			name: 'chargeMode',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show },
			options: [
				{
					name: 'Preview Cost (Free)',
					value: 'preview',
					description: `Ask what ${what} would cost. Nothing is bought or charged; the output is one item with the quote.`,
				},
				{
					name: 'Purchase',
					value: 'purchase',
					description: `Buy ${what}, charged per record and non-refundable, up to Max Cost`,
				},
			],
			default: 'preview',
		},
		{
			displayName: 'Max Cost (USD)',
			name: 'maxCost',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			displayOptions: { show: { ...show, chargeMode: ['purchase'] } },
			default: 0,
			hint: '0 buys nothing. The preview tells the Max Cost a purchase needs (maxCostNeeded).',
			description:
				'Most this node may spend in one run, all input items together. Every record counts at full price, so the cap holds even when free export credits run out.',
		},
		{
			displayName:
				'Purchases are charged, non-refundable and never repeated: with "Retry On Fail" on, this node refuses to buy. Execute step runs it again, and buys again, unless its output is pinned.',
			name: 'purchaseNotice',
			type: 'notice',
			displayOptions: { show: { ...show, chargeMode: ['purchase'] } },
			default: '',
		},
	];
}

/** Charge Mode as every charging operation has it (its values are the same for all). */
const CHARGE_MODE = chargeProperties({}, 'the records')[0];

/** The item's Charge Mode in this pass: a preview in the whole run's quote. */
export function chargeMode(
	context: IExecuteFunctions,
	pass: ChargePass,
	itemIndex: number,
): ChargeMode {
	if (pass === 'quote') return 'preview';
	return readChoice<ChargeMode>(context, itemIndex, CHARGE_MODE);
}

/** How many keys n8n keeps per node (or workflow); older ones are forgotten and bought again. */
export const BOUGHT_HISTORY = 10_000;

export function boughtBeforeProperties(
	show: Record<string, string[]>,
	key: 'PropID' | 'PersonKey',
	what: string,
): INodeProperties[] {
	const purchasing = { ...show, chargeMode: ['purchase'] };
	return [
		{
			displayName: 'Skip Records Bought Before',
			name: 'skipBoughtBefore',
			type: 'boolean',
			noDataExpression: true,
			displayOptions: { show: purchasing },
			default: false,
			description: `Whether to leave out the items whose ${what} this workflow bought in an earlier execution: nothing is sent or charged for them, and a note above the output names them. n8n keeps the ${key} of each purchase (the store its Remove Duplicates node uses) once it is charged and in the output, the last ${BOUGHT_HISTORY.toLocaleString('en-US')}.`,
		},
		{
			displayName: 'Bought Before By',
			name: 'boughtBeforeScope',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { ...purchasing, skipBoughtBefore: [true] } },
			options: [
				{
					name: 'Any Node of This Workflow',
					value: 'workflow',
					description:
						'Skip what any PropRadar node of this workflow with the same operation and this option bought',
				},
				{
					name: 'This Node',
					value: 'node',
					description: 'Skip what this node bought in earlier executions',
				},
			],
			default: 'node',
		},
	];
}
