import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AutomationRecord } from '../transport';
import { getConnection } from '../transport';
import { readCeiling } from './budget';

export function automationCharges(automation: Partial<AutomationRecord>): string[] {
	if (Number(automation.isEnabled) !== 1) return [];
	return [
		Number(automation.PurchasePhone) === 1 && 'Purchase Phone',
		Number(automation.PurchaseEmail) === 1 && 'Purchase Email',
		String(automation.DirectMailOrderID ?? '').trim() && 'Direct Mail Order',
		String(automation.EmailMarketingOrderID ?? '').trim() && 'Email Marketing Order',
	].filter((name): name is string => Boolean(name));
}

// An automation charges later inside PropRadar, outside any node run, where no ceiling bounds it: it needs
// the node's option and, under a credential with a ceiling, the owner's consent in the credential too.
export async function assertChargingAutomationAllowed(
	context: IExecuteFunctions,
	what: string,
	charges: string[],
	optionOn: boolean,
	itemIndex: number,
): Promise<void> {
	if (charges.length === 0) return;
	const buys =
		`${what} would buy (${charges.join(', ')}) for every property that triggers it, ` +
		`non-refundable and with no Max Cost`;
	if (!optionOn) {
		throw new NodeOperationError(
			context.getNode(),
			`${what} would buy: turn on "Allow Charging Automation" to configure it`,
			{
				itemIndex,
				description:
					`The ${buys}. Nothing was changed. Turn on the option ` +
					`"Allow Charging Automation" of this node if that is what you want.`,
			},
		);
	}
	const connection = await getConnection(context);
	if (
		readCeiling(
			context,
			connection.spendingCeiling,
			'Nothing was changed and nothing was charged.',
		) !== undefined &&
		!connection.allowChargingAutomations
	) {
		throw new NodeOperationError(
			context.getNode(),
			`${what} would buy, and the PropRadar credential does not allow charging automations`,
			{
				itemIndex,
				description:
					`The ${buys}. Those charges happen later inside PropRadar, where the ` +
					`credential's Spending Ceiling cannot bound them, so a credential with a ` +
					`ceiling refuses them unless its owner turns on ` +
					`"Allow Charging Automations" in the credential. Nothing was changed.`,
			},
		);
	}
}
