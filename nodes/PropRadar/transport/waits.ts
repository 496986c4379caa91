import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiContext } from './credential';
import { markNeverSent } from './outcome';

/** The waits between attempts, and the execution's stop that ends them and keeps anything more from being sent. */

/**
 * n8n's signal that this execution was stopped: from the editor or n8n's API, or by the workflow's
 * timeout (WorkflowExecute's `cancel`). n8n reports the execution stopped at once and drops what
 * the node returns after it, so from then on nothing more is sent. The editor's pickers and the
 * trigger's calls have none.
 */
export function stopSignal(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

/** Waits `ms`, or less when the execution is stopped meanwhile. */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) return;
	let onStop = () => {};
	const stopped = new Promise<void>((resolve) => {
		onStop = () => resolve();
		signal.addEventListener('abort', onStop);
	});
	try {
		await Promise.race([sleep(ms), stopped]);
	} finally {
		signal.removeEventListener('abort', onStop);
	}
}

/**
 * The failure of a request the execution's stop kept from being sent, or stopped on its way (n8n's
 * request helper aborts it): a purchase stopped on its way may have been charged.
 */
export function stopped(context: ApiContext, request: { charging: boolean; sent: boolean; itemIndex?: number }): NodeOperationError {
	const stop = 'n8n stopped this execution (from the editor or its API, or at the workflow\'s timeout)';
	const error = new NodeOperationError(
		context.getNode(),
		request.sent && request.charging ? 'The execution was stopped during a purchase: it may have been charged' : 'The execution was stopped: nothing more is sent to PropRadar',
		{
			itemIndex: request.itemIndex,
			description: !request.sent
				? `${stop} before this request went out, so it was not sent${request.charging ? ' and nothing was charged for it' : ''}.`
				: request.charging
					? `${stop} after this purchase was sent, before PropRadar answered, so it may have been charged. Nothing more was sent. Check the account's charges in PropRadar before running it again.`
					: `${stop} while a request that buys nothing was under way; its answer was not waited for.`,
		},
	);
	return request.sent ? error : markNeverSent(error);
}
