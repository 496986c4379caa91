import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

const MAX_REMEMBERED = 10_000;

// n8n's answer comes once the execution is created or failed to be (late while it waits for its database
// or a production slot); past this the execution is taken as started.
export const ANSWER_WAIT_MS = 120_000;

const hashOf = (event: IDataObject) =>
	createHash('sha256').update(JSON.stringify(event), 'utf8').digest('base64');

interface Remembered {
	expires: number;
	/** Until when n8n's answer to the delivery that admitted it is awaited; 0 once n8n answered that it started the execution. */
	answerBy: number;
}

/** `unsettled`: an event came in a delivery n8n has not answered yet, so whether its execution started is
 * not known; nothing is admitted, and the service is to deliver again later. */
export type Admission = { fresh: IDataObject[] } | { unsettled: true };

// A redelivery (same JSON) within the window is dropped once n8n started the first one's execution, asked
// for later until n8n answered, and admitted again when n8n could not start it. In this process's memory.
export class RedeliveryWindow {
	private readonly seen = new Map<string, Map<string, Remembered>>();

	admit(triggerKey: string, events: IDataObject[], windowMs: number, now: number): Admission {
		if (windowMs <= 0) return { fresh: events };
		const seen = this.seen.get(triggerKey) ?? new Map<string, Remembered>();
		this.seen.set(triggerKey, seen);
		for (const [hash, remembered] of seen) {
			if (remembered.expires > now) break;
			seen.delete(hash);
		}
		const hashes = events.map(hashOf);
		for (const hash of hashes) {
			const remembered = seen.get(hash);
			if (remembered && remembered.expires > now && remembered.answerBy > now)
				return { unsettled: true };
		}
		const fresh: IDataObject[] = [];
		hashes.forEach((hash, index) => {
			const remembered = seen.get(hash);
			if (remembered && remembered.expires > now) return;
			seen.delete(hash);
			seen.set(hash, { expires: now + windowMs, answerBy: now + ANSWER_WAIT_MS });
			fresh.push(events[index]);
		});
		while (seen.size > MAX_REMEMBERED) seen.delete(seen.keys().next().value as string);
		return { fresh };
	}

	/** Not started: the events are forgotten, so that their redelivery is admitted again. */
	settle(triggerKey: string, events: IDataObject[], started: boolean): void {
		const seen = this.seen.get(triggerKey);
		if (!seen) return;
		for (const event of events) {
			const hash = hashOf(event);
			const remembered = seen.get(hash);
			if (!remembered) continue;
			if (started) remembered.answerBy = 0;
			else seen.delete(hash);
		}
	}

	forget(triggerKey: string): void {
		this.seen.delete(triggerKey);
	}
}

/** The one window of this process, shared by every PropRadar Trigger. */
export const redeliveries = new RedeliveryWindow();

export function redeliveryKey(
	workflowId: string | undefined,
	nodeId: string,
	webhookId: number,
): string {
	return `${workflowId ?? ''}/${nodeId}/${webhookId}`;
}
