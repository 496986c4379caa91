/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * The value a record of the state keeps under `key`, or undefined: an own-property lookup, so that a
 * name a client gives (`constructor`, `__proto__`, ...) never finds what every object inherits.
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
	return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * The sandbox's whole mutable state: named slices of plain JSON, one per concern (money, lists,
 * webhooks, ...). Each module owns its slice's type and gets it with `slice(name, init)`.
 * In memory by default; with a data file every change is written through (`save()`), and a
 * restart with the same file continues where the last run stopped.
 */
export class SandboxStore {
	private slices: Record<string, unknown> = {};

	constructor(private readonly dataFile?: string) {
		if (dataFile && existsSync(dataFile)) {
			this.slices = JSON.parse(readFileSync(dataFile, 'utf8')) as Record<string, unknown>;
		}
	}

	slice<T>(name: string, init: () => T): T {
		if (!(name in this.slices)) this.slices[name] = init();
		return this.slices[name] as T;
	}

	/** Persists the state when a data file was given (atomic: write then rename). */
	save(): void {
		if (!this.dataFile) return;
		const tmp = `${this.dataFile}.tmp`;
		writeFileSync(tmp, JSON.stringify(this.slices));
		renameSync(tmp, this.dataFile);
	}

	reset(): void {
		this.slices = {};
		this.save();
	}
}
