import { until } from '../support/until';

/** The one polling helper (scripts/until.js), used by the demo, scripts/n8n-host.js and the tests. */

test('resolves to the first value the probe gives, asking again while it gives undefined', async () => {
	const answers = [undefined, undefined, 0, 5];
	let asked = 0;
	await expect(until('a value', () => answers[asked++], 60_000, 0)).resolves.toBe(0);
	expect(asked).toBe(3);
});

test('waits for an asynchronous probe', async () => {
	let asked = 0;
	await expect(
		until('a value', async () => (++asked === 2 ? 'ready' : undefined), 60_000, 0),
	).resolves.toBe('ready');
});

test('gives up past its limit, naming what it waited for', async () => {
	let asked = 0;
	await expect(until('n8n to be ready', () => void asked++, 0, 0)).rejects.toThrow(
		'gave up waiting for n8n to be ready',
	);
	expect(asked).toBeGreaterThanOrEqual(1);
});

test('a probe that throws stops the wait with its error', async () => {
	let asked = 0;
	const probe = () => {
		if (++asked === 2) throw new Error('n8n exited with 1');
		return undefined;
	};
	await expect(until('n8n to be ready', probe, 60_000, 0)).rejects.toThrow('n8n exited with 1');
	expect(asked).toBe(2);
});
