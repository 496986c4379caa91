/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { call, TOKENS, type Json } from './helpers';

/** The state survives a restart on the same data file (`--data FILE`, `dataFile` in process). */
let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'propradar-sandbox-data-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function withSandbox<T>(
	dataFile: string | undefined,
	use: (url: string) => Promise<T>,
): Promise<T> {
	const sandbox: RunningSandbox = await startSandbox({ port: 0, dataFile });
	try {
		return await use(sandbox.url);
	} finally {
		await sandbox.close();
	}
}

const ok = async (
	url: string,
	method: string,
	path: string,
	body?: unknown,
	token: string | null = TOKENS.main,
): Promise<Json> => {
	const answer = await call(url, method, path, { body, token });
	expect({ path, status: answer.status }).toEqual({ path, status: 200 });
	return answer.body;
};

test('lists, items, webhooks, purchases and charges are still there after a restart on the same data file', async () => {
	const dataFile = join(dir, 'state.json');
	const first = await withSandbox(dataFile, async (url) => {
		const created = await ok(url, 'POST', '/v1/lists', {
			ListName: 'Survivor',
			ListType: 'static',
			GroupName: 'Kept',
		});
		const listId = created.results[0].ListID;
		await ok(url, 'PUT', `/v1/lists/${listId}/items`, {
			Criteria: [{ name: 'PropID', value: ['P000005', 'P000006'] }],
		});
		const hook = await ok(url, 'POST', '/v1/integrations/webhooks', {
			HookUrl: 'http://127.0.0.1:9/hook',
			WebhookName: 'kept',
			Secret: 'k',
			Lists: [listId],
		});
		await ok(url, 'POST', '/v1/persons/K000005A/Phone?Purchase=1');
		return {
			listId,
			webhookId: hook.results[0].WebhookID,
			wallet: await ok(url, 'GET', `/_sandbox/charges?token=${TOKENS.main}`, undefined, null),
		};
	});
	expect(existsSync(dataFile)).toBe(true);

	await withSandbox(dataFile, async (url) => {
		expect((await ok(url, 'GET', `/v1/lists/${first.listId}`)).results[0]).toMatchObject({
			ListName: 'Survivor',
			GroupName: 'Kept',
			TotalCount: '2',
		});
		expect((await ok(url, 'GET', `/v1/lists/${first.listId}/items`)).results).toEqual([
			{ PropID: 'P000005' },
			{ PropID: 'P000006' },
		]);
		expect(
			(await ok(url, 'GET', `/v1/lists/${first.listId}/automations`)).results[0],
		).toMatchObject({ isEnabled: 1, ExportToWebhookIDs: String(first.webhookId) });
		expect((await ok(url, 'GET', '/v1/integrations/webhooks')).results).toEqual([
			expect.objectContaining({ WebhookID: first.webhookId, WebhookName: 'kept', Secret: 'k' }),
		]);
		expect(await ok(url, 'GET', `/_sandbox/charges?token=${TOKENS.main}`, undefined, null)).toEqual(
			first.wallet,
		);
		const again = await call(url, 'POST', '/v1/persons/K000005A/Phone?Purchase=1');
		expect(again.status).toBe(400);
		expect(again.body.error).toMatch(/already purchased/);

		const next = await ok(url, 'POST', '/v1/lists', { ListName: 'Second', ListType: 'static' });
		expect(next.results[0].ListID).not.toBe(first.listId);
	});

	await withSandbox(dataFile, async (url) => {
		const names = (await ok(url, 'GET', '/v1/lists')).results
			.map((list: Json) => list.ListName)
			.sort();
		expect(names).toEqual(['Second', 'Survivor']);
	});
});

test('a reset is persisted too; without a data file a restart starts from the seeded state', async () => {
	const dataFile = join(dir, 'reset.json');
	await withSandbox(dataFile, async (url) => {
		await ok(url, 'POST', '/v1/lists', { ListName: 'Gone soon', ListType: 'static' });
		await ok(url, 'POST', '/_sandbox/reset', undefined, null);
	});
	await withSandbox(dataFile, async (url) => {
		expect((await ok(url, 'GET', '/v1/lists')).results).toEqual([]);
	});

	await withSandbox(undefined, async (url) => {
		await ok(url, 'POST', '/v1/lists', { ListName: 'In memory', ListType: 'static' });
	});
	await withSandbox(undefined, async (url) => {
		expect((await ok(url, 'GET', '/v1/lists')).results).toEqual([]);
	});
});

test('a property added under an earlier sandbox (vacancy kept as isVacant, no inTaxDelinquency) is found by the vacancy and tax delinquency criteria as its record shows them', async () => {
	const dataFile = join(dir, 'earlier.json');
	await withSandbox(dataFile, async (url) => {
		const created = await ok(url, 'POST', '/v1/lists', {
			ListName: 'Growing',
			ListType: 'dynamic',
			Criteria: [{ name: 'State', value: ['OR'] }],
		});
		await ok(
			url,
			'POST',
			'/_sandbox/simulate/new-match',
			{ ListID: created.results[0].ListID },
			null,
		);
	});
	const kept = JSON.parse(readFileSync(dataFile, 'utf8'));
	const [added] = kept.properties.added;
	// What an earlier sandbox wrote: vacancy under its old name and no tax delinquency.
	added.isVacant = 1;
	delete added.isSiteVacant;
	delete added.inTaxDelinquency;
	writeFileSync(dataFile, JSON.stringify(kept));

	await withSandbox(dataFile, async (url) => {
		const propId = added.PropID as string;
		const search = async (name: string, value: number) =>
			(
				await ok(url, 'POST', '/v1/properties?Purchase=1&Fields=PropID', {
					Criteria: [
						{ name: 'PropID', value: [propId] },
						{ name, value: [value] },
					],
				})
			).results.length;
		const record = (
			await ok(
				url,
				'GET',
				`/v1/properties/${propId}?Purchase=1&Fields=PropID,isSiteVacant,inTaxDelinquency`,
			)
		).results[0];
		expect(record.isSiteVacant).toBe(1);
		expect(await search('isSiteVacant', 1)).toBe(1);
		expect(await search('isSiteVacant', 0)).toBe(0);
		expect([0, 1]).toContain(record.inTaxDelinquency);
		expect(await search('inTaxDelinquency', record.inTaxDelinquency)).toBe(1);
		expect(await search('inTaxDelinquency', 1 - record.inTaxDelinquency)).toBe(0);
	});
});
