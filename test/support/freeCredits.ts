/**
 * The main account's 100 free export credits gone before a test, so that every record it buys is
 * paid for from its balance.
 */
import { ACCOUNTS } from '../../sandbox/accounts';
import { wallet } from '../../sandbox/charges';
import type { RunningSandbox } from '../../sandbox/types';
import { call, sandboxCharges, TOKENS } from './sandboxApi';

/** Set to none in the sandbox's store: nothing was bought. */
export function withoutFreeCredits(sandbox: RunningSandbox): void {
	wallet(
		sandbox.ctx,
		ACCOUNTS.find((account) => account.token === TOKENS.main)!,
	).credits = 0;
}

/** Used up by another client of the account: it buys 100 properties in Washington. */
export async function useUpFreeCredits(sandboxUrl: string): Promise<void> {
	const used = await call(sandboxUrl, 'POST', '/v1/properties?Purchase=1&Limit=100', {
		body: { Criteria: [{ name: 'State', value: ['WA'] }] },
	});
	expect(used.status).toBe(200);
	expect((await sandboxCharges(sandboxUrl)).credits).toBe(0);
}
