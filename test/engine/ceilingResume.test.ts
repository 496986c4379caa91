/**
 * The credential's ceiling across an execution that waits: a Wait node (or any node waiting for a
 * webhook) puts the execution in n8n's database, and whichever process takes it up again (a
 * queue-mode worker, n8n after a restart) has no tally of what it spent before. What the ceiling
 * has spent is kept in the execution's custom data, which n8n saves with it and hands back on
 * resuming; the resumed part is an execution of this process with that custom data.
 */
import type { IDataObject } from 'n8n-workflow';

import { ACCOUNTS } from '../../sandbox/accounts';
import { wallet } from '../../sandbox/charges';
import { runNode, TOKENS } from '../support/harness';
import { useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();
const KEPT = 'propradar_spent_cred_1';

// Every record is paid for, none from free export credits: what is spent is what the ceiling counts.
beforeEach(() => {
	wallet(
		sb.sandbox.ctx,
		ACCOUNTS.find((account) => account.token === TOKENS.main)!,
	).credits = 0;
});

/** Property > Get for each PropID, bought one at a time under a ceiling of $0.50 (properties cost $0.10). */
const buy = (propIds: string[], customData?: Record<string, string>) =>
	runNode(
		{
			resource: 'property',
			operation: 'get',
			propId: '={{ $json.id }}',
			chargeMode: 'purchase',
			maxCost: 5,
		},
		{
			credentials: { baseUrl: sb.url, accessToken: TOKENS.main, spendingCeiling: 0.5 },
			items: propIds.map((id): IDataObject => ({ id })),
			continueOnFail: true,
			customData,
		},
	);
/** The PropIDs bought: one item by its GET, several through the search's PropID criterion. */
const bought = (propIds: string[]) =>
	propIds.filter(
		(id) =>
			sb.sent(`/v1/properties/${id}`).some((request) => request.query.get('Purchase') === '1') ||
			sb
				.sent('/v1/properties', 'POST')
				.some(
					(request) =>
						request.query.get('Purchase') === '1' &&
						(
							JSON.parse(request.body) as { Criteria: Array<{ value: string[] }> }
						).Criteria[0].value.includes(id),
				),
	);

test('what the ceiling spent before a wait counts after it: the execution keeps it in its custom data', async () => {
	const before = await buy(['P000841', 'P000842', 'P000843']);
	expect(bought(['P000841', 'P000842', 'P000843'])).toHaveLength(3);
	const kept = before.run.data.resultData.metadata;
	expect(kept).toEqual({ [KEPT]: '30' });

	// Three more do not fit what is left: the run is refused whole, before anything is bought.
	const refused = await buy(['P000844', 'P000845', 'P000846'], kept);
	expect(bought(['P000844', 'P000845', 'P000846'])).toEqual([]);
	expect(refused.json[0].error).toBe("Purchase refused: over the credential's spending ceiling");
	expect(String(refused.json[0].description)).toContain('has $0.20 of $0.50 left ($0.30 spent');
	const after = await buy(['P000844', 'P000845'], kept);
	expect(bought(['P000844', 'P000845'])).toEqual(['P000844', 'P000845']);
	expect(after.run.data.resultData.metadata).toEqual({ [KEPT]: '50' });
});

test('a kept amount that is no amount (written by something else) counts as the whole ceiling: nothing is bought', async () => {
	const after = await buy(['P000847'], { [KEPT]: 'plenty' });
	expect(bought(['P000847'])).toEqual([]);
	expect(after.json[0].error).toBe("Purchase refused: over the credential's spending ceiling");
});

test("custom data of the user's own is left as it is", async () => {
	const after = await buy(['P000848'], { orderId: 'A-17' });
	expect(bought(['P000848'])).toEqual(['P000848']);
	expect(after.run.data.resultData.metadata).toEqual({ orderId: 'A-17', [KEPT]: '10' });
});

test("an execution already holding n8n's 10 custom data entries: the amount is not kept (n8n drops an eleventh entry), and the purchase goes on under this process's tally", async () => {
	const own = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`key${i}`, String(i)]));
	const after = await buy(['P000849'], own);
	expect(bought(['P000849'])).toEqual(['P000849']);
	expect(after.run.data.resultData.metadata).toEqual(own);
});
