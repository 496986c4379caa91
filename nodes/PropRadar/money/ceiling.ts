import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { getConnection, type AutomationRecord } from '../transport';
import { money, readCents } from './quote';

/** Money counted against one limit: what was spent (or may have been) and what is held for purchases under way. */
export class Tally {
	spentCents = 0;
	heldCents = 0;
	touchedAt = Date.now();
	/** Keeps `spentCents` where it outlives this process, after each change (the ceiling's tally). */
	keepSpent?: () => void;

	constructor(readonly capCents: number) {}

	get leftCents(): number {
		return this.capCents - this.spentCents - this.heldCents;
	}

	describe(): string {
		return `has ${money(this.leftCents)} of ${money(this.capCents)} left (${money(this.spentCents)} spent, ${money(this.heldCents)} held for purchases under way)`;
	}
}

/** Undefined when no ceiling is set (0 or empty); one that is no amount is refused (fail closed). */
export function readCeiling(
	context: Pick<IExecuteFunctions, 'getNode'>,
	raw: unknown,
	done = 'Nothing was sent and nothing was charged.',
): number | undefined {
	if (raw === undefined || raw === null || raw === '' || raw === 0) return undefined;
	const cents = readCents(raw);
	if (cents === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`Spending Ceiling per Execution of the PropRadar credential: must be an amount in USD, 0 (no ceiling) or more with at most two decimals, got "${String(raw)}"`,
			{
				description: `${done} Ask the credential's owner to correct it.`,
			},
		);
	}
	return cents === 0 ? undefined : cents;
}

// The one state outside a run, since an execution spans several node runs: the ceiling's tally per
// execution and credential, evicted after a day idle (docs/money.md, "What the ceiling bounds").
const ceilingTallies = new Map<string, Tally>();
const TALLY_IDLE_MS = 24 * 60 * 60 * 1000;

// n8n's getter throws where there is no execution data. n8n 2.0.0 gives nodes no `customData`
// (packages/core/src/execution-engine/node-execution-context/execute-context.ts); the same store is
// `$execution.customData` (packages/workflow/src/workflow-data-proxy.ts). Without this fallback the
// ceiling forgets a Wait on 2.0.0: test/e2e/compatibility.test.ts ("across a Wait node").
function executionCustomData(
	context: IExecuteFunctions,
): IExecuteFunctions['customData'] | undefined {
	try {
		return (
			context.customData ??
			(
				context.getWorkflowDataProxy(0).$execution as
					{ customData?: IExecuteFunctions['customData'] } | undefined
			)?.customData
		);
	} catch {
		return undefined;
	}
}

/** All of the ceiling when what is kept is no amount (fail closed). */
function keptSpent(context: IExecuteFunctions, key: string, ceilingCents: number): number {
	const kept = executionCustomData(context)?.get(key);
	if (kept === undefined) return 0;
	const cents = Number(kept);
	return Number.isSafeInteger(cents) && cents >= 0 ? cents : ceilingCents;
}

// In queue mode n8n's MCP Server Trigger runs every tool call as an execution of its own, which names
// the trigger (`triggerNode`, packages/core/src/execution-engine/execution-context.ts); no other
// field tells it apart. test/engine/toolUse.test.ts fails without it.
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** The caller's execution in a sub-workflow; undefined where no one execution holds an agent's calls. */
function ceilingExecution(context: IExecuteFunctions): string | undefined {
	const executionId = context.getExecutionId();
	// n8n before 2.x gives no execution context.
	const runtime =
		typeof context.getExecutionContext === 'function' ? context.getExecutionContext() : undefined;
	if (!executionId || runtime?.triggerNode?.type === MCP_TRIGGER) return undefined;
	return runtime?.parentExecutionId ?? executionId;
}

export function ceilingTally(context: IExecuteFunctions, ceilingCents: number): Tally {
	const executionId = ceilingExecution(context);
	if (!executionId) {
		throw new NodeOperationError(
			context.getNode(),
			"Purchase refused: no n8n execution holds this call, so the credential's spending ceiling cannot count it",
			{
				description: `The PropRadar credential has a Spending Ceiling per Execution of ${money(ceilingCents)}, which adds up every purchase of one execution. n8n ran this call outside an execution that holds the other calls of the same agent run (n8n's Agents module, and the MCP Server Trigger, run each tool call on its own), so each call would have the whole ceiling. Nothing was sent and nothing was charged. Preview Cost (Free) works here. To buy, give the PropRadar tool to an AI Agent node in a workflow, whose calls share one execution; or the credential's owner may choose No Ceiling, and Max Cost alone bounds each call.`,
			},
		);
	}
	const credential = context.getNode().credentials?.propRadarApi;
	if (!credential) return new Tally(ceilingCents);
	const now = Date.now();
	for (const [key, tally] of ceilingTallies)
		if (now - tally.touchedAt > TALLY_IDLE_MS) ceilingTallies.delete(key);
	const credentialId = credential.id ?? credential.name;
	const key = `${executionId}\u0000${credentialId}\u0000${ceilingCents}`;
	const tally = ceilingTallies.get(key) ?? new Tally(ceilingCents);
	// Also kept in the execution's custom data: an execution resumed after a Wait or a restart may
	// run in another process.
	const kept = `propradar_spent_${credentialId.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 50);
	tally.spentCents = Math.max(tally.spentCents, keptSpent(context, kept, ceilingCents));
	tally.keepSpent = () => executionCustomData(context)?.set(kept, String(tally.spentCents));
	tally.touchedAt = now;
	ceilingTallies.set(key, tally);
	return tally;
}

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
	const buys = `${what} would buy (${charges.join(', ')}) for every property that triggers it, non-refundable and with no Max Cost`;
	if (!optionOn) {
		throw new NodeOperationError(
			context.getNode(),
			`${what} would buy: turn on "Allow Charging Automation" to configure it`,
			{
				itemIndex,
				description: `The ${buys}. Nothing was changed. Turn on the option "Allow Charging Automation" of this node if that is what you want.`,
			},
		);
	}
	const connection = await getConnection(context);
	const done = 'Nothing was changed and nothing was charged.';
	const ceiling = readCeiling(context, connection.spendingCeiling, done);
	if (ceiling !== undefined && !connection.allowChargingAutomations) {
		throw new NodeOperationError(
			context.getNode(),
			`${what} would buy, and the PropRadar credential does not allow charging automations`,
			{
				itemIndex,
				description: `The ${buys}. Those charges happen later inside PropRadar, where the credential's Spending Ceiling cannot bound them, so a credential with a ceiling refuses them unless its owner turns on "Allow Charging Automations" in the credential. Nothing was changed.`,
			},
		);
	}
}
