import { pause } from './waits';

/**
 * The most requests one node run has under way to PropRadar at once, whatever Items at Once, paging
 * and batching ask for (docs/performance.md, "Requests in flight").
 */
export const MAX_IN_FLIGHT = 50;
/** Where a run starts: as many as Items at Once's default used to allow, until the service shows it keeps up. */
export const FIRST_WINDOW = 10;
// An answer this many times slower than the run's usual one, and at least a second slower, is a
// service falling behind: as a 429, it halves the window.
const SLOW_FACTOR = 3;
const SLOW_MARGIN_MS = 1_000;

export type Outcome = 'answered' | 'busy' | 'failed';

/**
 * A run's window of requests in flight, as TCP's congestion window: it starts at FIRST_WINDOW,
 * grows by one with every answer that came back in time (doubling each round trip) until the
 * service first says it is busy, then by one each round trip; a 429 or 503, or an answer far
 * slower than usual, halves it (once for the requests that were under way together); it never
 * passes MAX_IN_FLIGHT. A `Retry-After` holds every request of the run, not only the one it
 * answered.
 */
export class InFlight {
	private running = 0;
	private window = FIRST_WINDOW;
	private growingFast = true;
	/** Bumped at every cut: answers to requests sent before it do not cut again. */
	private epoch = 0;
	private usualMs: number | undefined;
	private resumeAt = 0;
	private readonly waiting = new Set<() => void>();
	/** The most under way at once in this run (for tests and the benchmark). */
	peak = 0;

	/** Waits for a place; false when the execution was stopped meanwhile. */
	async enter(stop: AbortSignal | undefined): Promise<{ epoch: number; sentAt: number } | false> {
		for (;;) {
			if (stop?.aborted) return false;
			const hold = this.resumeAt - Date.now();
			if (hold > 0) {
				await pause(hold, stop);
				continue;
			}
			if (this.running < Math.floor(this.window)) {
				this.running++;
				this.peak = Math.max(this.peak, this.running);
				return { epoch: this.epoch, sentAt: Date.now() };
			}
			await this.next(stop);
		}
	}

	leave(entry: { epoch: number; sentAt: number }, outcome: Outcome, retryAfterMs?: number): void {
		this.running--;
		const tookMs = Date.now() - entry.sentAt;
		const slow =
			outcome === 'answered' &&
			this.usualMs !== undefined &&
			tookMs > this.usualMs * SLOW_FACTOR + SLOW_MARGIN_MS;
		if (outcome === 'busy' || slow) {
			if (entry.epoch === this.epoch) {
				this.epoch++;
				this.window = Math.max(1, Math.floor(this.window / 2));
				this.growingFast = false;
			}
			if (retryAfterMs !== undefined)
				this.resumeAt = Math.max(this.resumeAt, Date.now() + retryAfterMs);
		} else if (outcome === 'answered') {
			this.window = Math.min(
				MAX_IN_FLIGHT,
				this.window + (this.growingFast ? 1 : 1 / Math.max(1, this.window)),
			);
		}
		if (outcome === 'answered' && !slow)
			this.usualMs = this.usualMs === undefined ? tookMs : this.usualMs * 0.8 + tookMs * 0.2;
		for (const wake of this.waiting) wake();
		this.waiting.clear();
	}

	private async next(stop: AbortSignal | undefined): Promise<void> {
		let onStop = () => {};
		await new Promise<void>((resolve) => {
			onStop = resolve;
			this.waiting.add(resolve);
			stop?.addEventListener('abort', onStop);
		});
		this.waiting.delete(onStop);
		stop?.removeEventListener('abort', onStop);
	}
}

// One window per node run: n8n gives every run of a node a context of its own.
const windows = new WeakMap<object, InFlight>();

export function inFlight(context: object): InFlight {
	let window = windows.get(context);
	if (!window) {
		window = new InFlight();
		windows.set(context, window);
	}
	return window;
}
