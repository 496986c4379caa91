// Money is counted in integer cents and written as the API writes it ("12.34").

// Integer cents, or undefined for anything but a non-negative amount with at most two decimals:
// money code refuses what is unreadable, never reads it as $0 (docs/money.md, rule 5).
export function readCents(amount: unknown): number | undefined {
	if (typeof amount === 'string') {
		const text = amount.trim();
		if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) return undefined;
		const [units, decimals = ''] = text.split('.');
		return Number(units) * 100 + Number(decimals.padEnd(2, '0'));
	}
	if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return undefined;
	const cents = Math.round(amount * 100);
	return Math.abs(cents - amount * 100) < 1e-6 && cents <= Number.MAX_SAFE_INTEGER
		? cents
		: undefined;
}

export function formatCents(cents: number): string {
	return (cents / 100).toFixed(2);
}

/** An amount a preview gives, in cents; 0 when it gives none. */
export const cents = (value: unknown) => readCents(value) ?? 0;

/** An amount as the node's messages say it: "$12.34". */
export const money = (cents: number) => `$${formatCents(cents)}`;
