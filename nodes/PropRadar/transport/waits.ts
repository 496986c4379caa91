import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiContext } from './credential';
import { markNeverSent } from './outcome';

// n8n drops what a stopped execution's node returns, so nothing more is sent (docs/money.md, rule 9).
// The editor's pickers and the trigger's calls have no such signal.
export function stopSignal(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

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

export function stopped(
	context: ApiContext,
	request: { charging: boolean; sent: boolean; itemIndex?: number },
): NodeOperationError {
	const stop =
		"n8n stopped this execution (from the editor or its API, or at the workflow's timeout)";
	const error = new NodeOperationError(
		context.getNode(),
		request.sent && request.charging
			? 'The execution was stopped during a purchase: it may have been charged'
			: 'The execution was stopped: nothing more is sent to PropRadar',
		{
			itemIndex: request.itemIndex,
			description: !request.sent
				? `${stop} before this request went out, so it was not ` +
					`sent${request.charging ? ' and nothing was charged for it' : ''}.`
				: request.charging
					? `${stop} after this purchase was sent, before PropRadar answered, so ` +
						`it may have been charged. Nothing more was sent. Check the account's ` +
						`charges in PropRadar before running it again.`
					: `${stop} while a request that buys nothing was under way; its ` +
						`answer was not waited for.`,
		},
	);
	return request.sent ? error : markNeverSent(error);
}
