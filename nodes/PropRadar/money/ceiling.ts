import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { money } from './cents';
import { Tally } from './tally';

// The one state outside a run: an execution spans several node runs (a loop, two nodes, an agent's
// tool calls), so the ceiling's tally lives per execution and credential in this process, evicted
// after a day idle (docs/money.md, "What the ceiling bounds").
const ceilingTallies = new Map<string, Tally>();
const TALLY_IDLE_MS = 24 * 60 * 60 * 1000;

// Also kept in the execution's custom data: an execution resumed after a Wait or a restart may run in another process.
const SPENT_KEY_PREFIX = 'propradar_spent_';

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

function spentKey(credentialId: string): string {
	return `${SPENT_KEY_PREFIX}${credentialId.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 50);
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
			"Purchase refused: no n8n execution holds this call, so the credential's " +
				'spending ceiling cannot count it',
			{
				description:
					`The PropRadar credential has a Spending Ceiling per Execution of ` +
					`${money(ceilingCents)}, which adds up every purchase of one execution. ` +
					`n8n ran this call outside an execution that holds the other calls of the ` +
					`same agent run (n8n's Agents module, and the MCP Server Trigger, run each ` +
					`tool call on its own), so each call would have the whole ceiling. Nothing ` +
					`was sent and nothing was charged. Preview Cost (Free) works here. To buy, ` +
					`give the PropRadar tool to an AI Agent node in a workflow, whose calls ` +
					`share one execution; or the credential's owner may choose No Ceiling, and ` +
					`Max Cost alone bounds each call.`,
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
	const kept = spentKey(credentialId);
	tally.spentCents = Math.max(tally.spentCents, keptSpent(context, kept, ceilingCents));
	tally.keepSpent = () => executionCustomData(context)?.set(kept, String(tally.spentCents));
	tally.touchedAt = now;
	ceilingTallies.set(key, tally);
	return tally;
}
