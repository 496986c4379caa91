import {
	liveRegistrations,
	registrationSlot,
	type Registration,
} from '../../nodes/PropRadar/trigger/registration/settle';

/**
 * Where a trigger keeps a registration in its static data (nodes/PropRadar/trigger/registration/):
 * one slot per kind of URL (production, test), the same slot whatever host n8n is reached at.
 */

const WEBHOOK_ID = '6f1c2d3e-aaaa-bbbb-cccc-1234567890ab';

describe('the registration slot', () => {
	test('production and "Listen for test event" have a slot each', () => {
		expect(
			registrationSlot(`http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`, WEBHOOK_ID),
		).toBe('/webhook');
		expect(
			registrationSlot(`http://127.0.0.1:5678/webhook-test/${WEBHOOK_ID}/webhook`, WEBHOOK_ID),
		).toBe('/webhook-test');
	});

	test('a new host, port or scheme (a changed WEBHOOK_URL) keeps the slot, so the old registration is replaced', () => {
		const slots = [
			`http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`,
			`https://n8n.example.com/webhook/${WEBHOOK_ID}/webhook`,
			`HTTPS://N8N.example.com:8443/webhook/${WEBHOOK_ID}/webhook`,
		].map((url) => registrationSlot(url, WEBHOOK_ID));
		expect(new Set(slots)).toEqual(new Set(['/webhook']));
	});

	test("the slot is the whole path before the node's webhook id: a reverse proxy's prefix included, nothing when there is none", () => {
		expect(
			registrationSlot(`https://example.com/n8n/webhook/${WEBHOOK_ID}/webhook`, WEBHOOK_ID),
		).toBe('/n8n/webhook');
		expect(registrationSlot(`https://example.com/${WEBHOOK_ID}/webhook`, WEBHOOK_ID)).toBe('');
	});

	test("without the node's webhook id in the URL, the whole path is the slot", () => {
		expect(registrationSlot(`https://example.com/webhook/${WEBHOOK_ID}/webhook`, undefined)).toBe(
			`/webhook/${WEBHOOK_ID}/webhook`,
		);
		expect(registrationSlot('https://example.com/webhook/other-id/webhook', WEBHOOK_ID)).toBe(
			'/webhook/other-id/webhook',
		);
		expect(registrationSlot(`https://example.com/webhook/${WEBHOOK_ID}x/webhook`, WEBHOOK_ID)).toBe(
			`/webhook/${WEBHOOK_ID}x/webhook`,
		);
	});
});

describe('the registrations a delivery is checked against', () => {
	const registration = (webhookId: number, hookUrl: string): Registration => ({
		webhookId,
		listId: 1,
		hookUrl,
		secretSalt: 'x'.repeat(64),
		events: ['newMatches'],
		baseline: { isEnabled: 0, triggers: '', webhookIds: '' },
		charging: false,
	});

	test("every slot's registration, production and test", () => {
		const production = registration(7, `http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`);
		const test = registration(8, `http://127.0.0.1:5678/webhook-test/${WEBHOOK_ID}/webhook`);
		expect(
			liveRegistrations({ registrations: { '/webhook': production, '/webhook-test': test } }),
		).toEqual([production, test]);
	});

	test('none before any registration, and reading changes nothing in the static data', () => {
		const staticData = {};
		expect(liveRegistrations(staticData)).toEqual([]);
		expect(staticData).toEqual({});
		expect(liveRegistrations({ registrations: null })).toEqual([]);
		expect(liveRegistrations({ registrations: 'broken' })).toEqual([]);
	});
});
