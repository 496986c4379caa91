import { TOKENS } from '../support/harness';
import { run, useEngineSandbox } from '../support/helpers';

/**
 * The two 403 causes of the lists document that the sandbox's no-API and read-only accounts model:
 * the node says what happened (the service's words) and what to do, and never shows the token.
 */
const sb = useEngineSandbox();

test('403: a token without the API entitlement', async () => {
	const result = await run(
		sb,
		{ resource: 'list', operation: 'getMany', returnAll: true },
		undefined,
		TOKENS.noApi,
	);
	expect(result.error?.httpCode).toBe('403');
	expect(result.error?.message).toBe('PropRadar refused this request for your account');
	expect(result.error?.description).toContain('This account has no API entitlement');
	expect(result.error?.description).toContain("Check the account's plan and permissions");
	expect(JSON.stringify(result.error)).not.toContain(TOKENS.noApi);
});

test('403: no permission for the operation; a refused purchase says nothing was charged', async () => {
	const created = await run(
		sb,
		{ resource: 'list', operation: 'create', listName: 'Mine', listType: 'static' },
		undefined,
		TOKENS.readOnly,
	);
	expect(created.error?.httpCode).toBe('403');
	expect(created.error?.description).toContain('Your user has no permission for this operation');
	expect(created.error?.description).toContain('An account owner can change the role');
	expect(JSON.stringify(created.error)).not.toContain(TOKENS.readOnly);

	const bought = await run(
		sb,
		{
			resource: 'person',
			operation: 'purchasePhone',
			personKey: 'K000001A',
			chargeMode: 'purchase',
			maxCost: 5,
		},
		undefined,
		TOKENS.readOnly,
	);
	expect(bought.error?.httpCode).toBe('403');
	expect(bought.error?.description).toContain('Your user has no permission for this operation');
	expect(bought.error?.description).toContain('nothing was bought or charged');
	expect(sb.sent('/v1/persons/K000001A/Phone').map((r) => r.query.get('Purchase'))).toEqual(['0']);
});
