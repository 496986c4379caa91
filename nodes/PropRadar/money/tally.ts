import { money } from './cents';

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
		return (
			`has ${money(this.leftCents)} of ${money(this.capCents)} left ` +
			`(${money(this.spentCents)} spent, ${money(this.heldCents)} held for ` +
			`purchases under way)`
		);
	}
}
