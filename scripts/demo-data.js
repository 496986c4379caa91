// What the example workflows expect in a fresh sandbox: list 1 is a monitored dynamic list of
// Oregon properties in foreclosure (the trigger example listens to it). Used by the demo and the
// e2e tier, so both start from the same state.
'use strict';

async function seedDemoData(sandboxUrl, token = 'sandbox-token') {
	const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
	const existing = await fetch(`${sandboxUrl}/v1/lists/1`, { headers });
	if (existing.ok) return 1;
	const response = await fetch(`${sandboxUrl}/v1/lists`, {
		method: 'POST',
		headers,
		body: JSON.stringify({
			ListName: 'Oregon foreclosures',
			ListType: 'dynamic',
			isMonitored: 1,
			Criteria: [
				{ name: 'State', value: ['OR'] },
				{ name: 'inForeclosure', value: [1] },
			],
		}),
	});
	const body = await response.json();
	if (!response.ok || body.results[0].ListID !== 1)
		throw new Error(`could not create the demo list: ${JSON.stringify(body)}`);
	return 1;
}

module.exports = { seedDemoData };
