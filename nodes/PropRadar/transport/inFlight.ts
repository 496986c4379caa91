import { perRun } from './run';

/**
 * The most requests one node run has under way to PropRadar at once, whatever Items at Once, paging
 * and batching ask for (docs/performance.md, "Requests in flight").
 */
export const MAX_IN_FLIGHT = 50;

/** A counter of free places; a request waiting for one stops waiting when the execution stops. */
export class InFlight {
	private free = MAX_IN_FLIGHT;
	private readonly waiting = new Set<() => void>();

	/** True once a place is taken; false when the execution was stopped first. */
	async enter(stop: AbortSignal | undefined): Promise<boolean> {
		if (stop?.aborted) return false;
		if (this.free > 0) {
			this.free--;
			return true;
		}
		return await new Promise<boolean>((resolve) => {
			const onStop = () => {
				this.waiting.delete(turn);
				resolve(false);
			};
			const turn = () => {
				stop?.removeEventListener('abort', onStop);
				resolve(true);
			};
			this.waiting.add(turn);
			stop?.addEventListener('abort', onStop, { once: true });
		});
	}

	leave(): void {
		const [next] = this.waiting;
		if (!next) this.free++;
		else {
			this.waiting.delete(next);
			next();
		}
	}
}

export const inFlight = (context: object): InFlight =>
	perRun(context, 'inFlight', () => new InFlight());
