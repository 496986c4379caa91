import type { INodeProperties } from 'n8n-workflow';

import { formatCents, LIST_PRICES_CENTS, type PriceKind } from '../money';
import { operationOptions, type ResourceModule } from './resources';

// What an AI agent is told of each operation, in place of n8n's "<action> in PropRadar", which says
// nothing of money (docs/design.md, actions/).

/** What a charging operation charges for, at which of the prices the node knows (money/quote.ts). */
export const TOOL_CHARGES: Record<string, { kind: PriceKind; per: string }> = {
	'property.get': { kind: 'property', per: 'per property' },
	'property.search': { kind: 'property', per: 'per property returned' },
	'property.getComps': { kind: 'propertyDetail', per: 'per call that returns comparables' },
	'property.getEvictions': {
		kind: 'propertyDetail',
		per: 'per call that returns eviction records',
	},
	'property.getParcels': { kind: 'propertyDetail', per: 'per call that returns a parcel shape' },
	'property.getTransactions': { kind: 'propertyDetail', per: 'per call that returns transactions' },
	'person.getOwners': { kind: 'person', per: 'per owner returned' },
	'person.getRecords': { kind: 'personRecord', per: 'per record returned' },
	'person.purchasePhone': { kind: 'phone', per: 'per phone number bought' },
	'person.purchaseEmail': { kind: 'email', per: 'per e-mail address bought' },
	'importRecord.import': { kind: 'importRecord', per: 'per imported record' },
};

const ID_FORMATS: Array<[RegExp, string]> = [
	[/propIds?$/i, 'a PropID, text such as P000123'],
	[/personKey$/i, 'a PersonKey, text such as K000123A (Person > Get Owners gives them)'],
	[/listId$/i, 'a list ID, a whole number such as 42'],
	[/Id$/, 'a whole number'],
];

/** The IDs the operation takes, each with its format: what a model fills `$fromAI` parameters with. */
function idFormats(resource: ResourceModule, resourceName: string, operation: string): string {
	const named = resource.description.flatMap(({ name, displayName, displayOptions }) => {
		const format = ID_FORMATS.find(([pattern]) => pattern.test(name))?.[1];
		const show = displayOptions?.show;
		if (!format || !show?.resource?.includes(resourceName) || !show.operation?.includes(operation))
			return [];
		// The editor's "let the model define this parameter" names the $fromAI key after the field.
		const key = displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);
		return [`${displayName}${key === displayName ? '' : ` (${key})`} is ${format}`];
	});
	return named.length > 0 ? ` IDs: ${[...new Set(named)].join('; ')}.` : '';
}

function toolDescription(action: string, key: string, mode?: 'preview' | 'purchase'): string {
	const charge = TOOL_CHARGES[key];
	if (!charge) {
		if (key === 'automation.configure') {
			return `${action} in PropRadar. The call itself is free, but an automation that buys (Purchase Phone, Purchase Email, direct-mail or e-mail marketing orders) is charged later, inside PropRadar, for every property that triggers it, outside any Max Cost or spending ceiling: the tool refuses to set one up unless its "Allow Charging Automation" option is on (and, under a credential with a spending ceiling, the credential allows it).`;
		}
		return `${action} in PropRadar. Free: this call charges nothing.`;
	}
	const cost = `$${formatCents(LIST_PRICES_CENTS[charge.kind])} ${charge.per}`;
	if (mode === 'preview') {
		return `Preview what it costs to ${action.charAt(0).toLowerCase()}${action.slice(1)} in PropRadar. Free: nothing is bought or charged, and the records themselves are not returned. Returns the quote: totalCost, resultCount, quantityFreeRemaining, and maxCostNeeded, the Max Cost a purchase of the same needs. Buying costs ${cost} at the price this node knows (free export credits pay first while the account has them), in a tool set to Purchase.`;
	}
	return `${action} in PropRadar. This tool BUYS: what it returns is charged, non-refundable, ${cost} at the price this node knows (free export credits pay first while the account has them; the quote before each purchase gives the real cost). One call spends at most this tool's Max Cost, and all calls of one agent run (one n8n execution) together at most the PropRadar credential's Spending Ceiling per Execution, when its owner set one. A purchase that does not fit what is left is refused and nothing is charged. The result always says what happened to the money: "charged" on an error, "_charge" on every bought record. The same operation with Charge Mode "Preview Cost (Free)" is free and gives maxCostNeeded, the Max Cost a purchase needs.`;
}

export function toolDescriptionProperties(
	resources: Record<string, ResourceModule>,
): INodeProperties[] {
	return Object.entries(resources).flatMap(([resourceName, resource]) => {
		return operationOptions(resource).flatMap((option) => {
			const operation = String(option.value);
			const key = `${resourceName}.${operation}`;
			const action = option.action ?? `${option.name} ${resourceName}`;
			const ids = idFormats(resource, resourceName, operation);
			const modes = TOOL_CHARGES[key] ? (['purchase', 'preview'] as const) : [undefined];
			return modes.map((mode): INodeProperties => ({
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string',
				typeOptions: { rows: 4 },
				default: `${toolDescription(action, key, mode)}${ids}`,
				displayOptions: {
					show: {
						'@tool': [true],
						resource: [resourceName],
						operation: [operation],
						...(mode ? { chargeMode: [mode] } : {}),
					},
				},
				description:
					'What the AI agent is told about this tool. The default says what the operation does, what it costs and what bounds the spending; keep that if you write your own.',
			}));
		});
	});
}
