/**
 * Money in a real n8n (scripts/n8n-install.sh): a Return All purchase over the cap, and n8n's
 * "Retry On Fail" with a purchase whose connection drops after the service charged it, each checked
 * against the sandbox's charge log. Faults come from the sandbox's own fault route, at the HTTP level.
 */
import { rmSync } from 'node:fs';

import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { call, TOKENS } from '../support/sandboxApi';
import * as n8n from '../../scripts/n8n-host';
import type { RunningN8n } from '../../scripts/n8n-host';

jest.setTimeout(300_000);

interface ChargeEntry { kind: string; quantity: number; cents: number; what: string }

let sandbox: RunningSandbox;
let host: RunningN8n;

/** A workflow: a manual trigger, then one PropRadar node with these parameters and node settings. */
function workflow(id: string, parameters: Record<string, unknown>, settings: Record<string, unknown> = {}) {
	return {
		id,
		name: `e2e money: ${id}`,
		nodes: [
			{ id: 'run', name: 'Run', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'buy',
				name: 'Buy',
				type: 'n8n-nodes-propradar.propRadar',
				typeVersion: 1,
				position: [220, 0],
				parameters,
				credentials: { propRadarApi: n8n.CREDENTIAL },
				...settings,
			},
		],
		connections: { Run: { main: [[{ node: 'Buy', type: 'main', index: 0 }]] } },
		settings: {},
	};
}

const searchAll = { resource: 'property', operation: 'search', criteriaMode: 'json', criteriaJson: '[{"name":"State","value":["OR"]},{"name":"Pool","value":[1]}]', returnAll: true, fields: { include: ['PropID'] }, chargeMode: 'purchase', maxCost: 5 };
const getOne = { resource: 'property', operation: 'get', propId: 'P000777', chargeMode: 'purchase', maxCost: 5 };

const sandboxCall = async <T>(method: string, path: string, body?: unknown): Promise<T> => (await call(sandbox.url, method, path, { body })).body as T;
const charges = async () => (await sandboxCall<{ log: ChargeEntry[] }>('GET', `/_sandbox/charges?token=${TOKENS.main}`)).log;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	const prepared = await n8n.prepare({
		sandboxUrl: sandbox.url,
		workflows: [
			workflow('PropRadarE2eMoney1', searchAll),
			workflow('PropRadarE2eMoney2', getOne, { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 }),
			workflow('PropRadarE2eMoney3', getOne),
		],
	});
	host = await n8n.start(prepared);
});

afterAll(async () => {
	await host?.stop();
	await sandbox?.close();
	if (host) rmSync(host.userFolder, { recursive: true, force: true });
});

beforeEach(async () => {
	await sandboxCall('DELETE', '/_sandbox/faults');
});

test('a Return All purchase over Max Cost is refused before the first page: nothing charged', async () => {
	const before = (await charges()).length;
	// n8n's CLI prints the error's message (the description, with the figures, is in the engine tier's checks).
	await expect(n8n.execute(host, 'PropRadarE2eMoney1')).rejects.toThrow(/Purchase refused: over Max Cost/);
	expect((await charges()).slice(before)).toEqual([]);
});

test('"Retry On Fail" on: the purchase is refused before anything is sent, however often n8n retries', async () => {
	// The purchase, if it were sent, would be charged and its answer lost.
	await sandboxCall('POST', '/_sandbox/faults', { path: '/v1/properties/P000777', query: { Purchase: '1' }, when: 'after', drop: true, count: 5 });
	const before = (await charges()).length;
	await expect(n8n.execute(host, 'PropRadarE2eMoney2')).rejects.toThrow(/Purchase refused: "Retry On Fail" is on for this node/);
	expect((await charges()).slice(before)).toEqual([]);
});

test('a purchase whose connection drops after the charge is charged once, and n8n shows the node\'s own words', async () => {
	await sandboxCall('POST', '/_sandbox/faults', { path: '/v1/properties/P000777', query: { Purchase: '1' }, when: 'after', drop: true, count: 1 });
	const before = (await charges()).length;
	const failure = await n8n.execute(host, 'PropRadarE2eMoney3').then(() => new Error('the run succeeded'), (error: Error) => error);
	expect(failure.message).toContain('The connection to PropRadar failed during a purchase: it may have been charged');
	expect(failure.message).not.toContain('You can retry the request immediately');
	expect((await charges()).slice(before)).toEqual([expect.objectContaining({ what: 'property P000777', quantity: 1 })]);
});
