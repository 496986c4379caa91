import type { DeduplicationScope, IDataObject, INodeProperties } from 'n8n-workflow';

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

export interface BoughtBefore {
	scope: DeduplicationScope;
	/** The operation a key is stored under, so that one store serves a workflow's operations. */
	operation: string;
}

/** Whether an item's records include one bought (charged or paid by credits) by this run. */
export function boughtIn(records: IDataObject[]): boolean {
	return records.some(
		(record) =>
			record._charge !== undefined && record.preview !== true && record.purchased !== false,
	);
}

/** The run's Skip Records Bought Before: its store, and the items it leaves out. */
export interface Skipping {
	ledger: BoughtBefore;
	keys: Map<number, string>;
	skipped: Map<number, string>;
}
