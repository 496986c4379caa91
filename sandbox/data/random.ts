import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * A seeded generator for the sandbox's data: every record is derived from its id, so the same id
 * gives the same record in every run, and nothing depends on `Math.random`.
 */
export class Seeded {
	private readonly rng;

	constructor(key: string) {
		this.rng = xoroshiro128plus(hash(key));
	}

	int(min: number, max: number): number {
		return uniformInt(this.rng, min, max);
	}

	/** True with probability `p`. */
	chance(p: number): boolean {
		return this.int(0, 999_999) < p * 1_000_000;
	}

	pick<T>(values: readonly T[]): T {
		return values[this.int(0, values.length - 1)];
	}

	/** A float in [min, max) with `decimals` digits. */
	float(min: number, max: number, decimals = 2): number {
		const scale = 10 ** decimals;
		return this.int(Math.round(min * scale), Math.round(max * scale) - 1) / scale;
	}

	digits(count: number): string {
		let out = '';
		for (let i = 0; i < count; i++) out += String(this.int(0, 9));
		return out;
	}
}

/** FNV-1a, 32 bits: a stable seed from a string. */
export function hash(key: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < key.length; i++) {
		h ^= key.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h | 0;
}

/** A date `days` before 2026-11-01 as M/D/YYYY (the API's date format). */
export function usDate(daysAgo: number): string {
	const date = new Date(Date.UTC(2026, 10, 1) - daysAgo * 86_400_000);
	return `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`;
}
