/**
 * The credential's Spending Ceiling as n8n hands it to the node: n8n fills in the credential's
 * defaults and drops the fields its display rules hide (`applyDefaultsAndOverwrites` in n8n's
 * CredentialsHelper calls `NodeHelpers.getNodeParameters` on the stored values), and the node reads
 * the result. "No Ceiling" is a choice of its own; a credential saved before that choice existed
 * keeps what its amount meant (0: no ceiling).
 */
import {
	NodeHelpers,
	type ICredentialDataDecryptedObject,
	type INodeProperties,
} from 'n8n-workflow';

import { PropRadarApi } from '../../credentials/PropRadarApi.credentials';
import { chargeProperties } from '../../nodes/PropRadar/money';
import { runNode, TOKENS, type CredentialValues } from '../support/harness';
import { useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();

const credential = new PropRadarApi();

/** The credential's values as n8n decrypts them for a node: defaults in, hidden fields out. */
function asN8nGivesIt(stored: ICredentialDataDecryptedObject): CredentialValues {
	const values = NodeHelpers.getNodeParameters(
		credential.properties,
		{ accessToken: TOKENS.main, baseUrl: sb.url, ...stored },
		true,
		false,
		null,
		null,
	);
	return values as unknown as CredentialValues;
}

/** A property bought at $0.10 under a Max Cost of $1: only a ceiling below $0.10 refuses it. */
async function buyOneProperty(stored: ICredentialDataDecryptedObject, propId: string) {
	const result = await runNode(
		{ resource: 'property', operation: 'get', propId, chargeMode: 'purchase', maxCost: 1 },
		{ credentials: asN8nGivesIt(stored) },
	);
	return {
		error: result.error?.message,
		bought: sb
			.sent(`/v1/properties/${propId}`)
			.filter((request) => request.query.get('Purchase') === '1').length,
	};
}

const field = (name: string): INodeProperties =>
	credential.properties.find((property) => property.name === name)!;

test('"No Ceiling" chosen: no ceiling, even with an amount left in the stored values', async () => {
	await expect(
		buyOneProperty({ spendingCeilingMode: 'none', spendingCeiling: 0.05 }, 'P000801'),
	).resolves.toEqual({ error: undefined, bought: 1 });
});

test('"Ceiling per Execution" chosen: the amount bounds the execution', async () => {
	await expect(
		buyOneProperty({ spendingCeilingMode: 'ceiling', spendingCeiling: 0.05 }, 'P000802'),
	).resolves.toEqual({
		error: "Purchase refused: over the credential's spending ceiling",
		bought: 0,
	});
});

test('a credential saved before the choice existed keeps working: 0 is no ceiling, an amount is a ceiling', async () => {
	await expect(buyOneProperty({ spendingCeiling: 0 }, 'P000803')).resolves.toEqual({
		error: undefined,
		bought: 1,
	});
	await expect(buyOneProperty({ spendingCeiling: 0.05 }, 'P000804')).resolves.toMatchObject({
		bought: 0,
	});
});

test('the fields say it where the user looks: "No Ceiling" is an option, the amount says how to have none, Max Cost says 0 buys nothing', () => {
	expect(
		(field('spendingCeilingMode').options as Array<{ name: string }>).map((option) => option.name),
	).toEqual(['Ceiling per Execution', 'No Ceiling']);
	const amount = field('spendingCeiling');
	expect(amount.displayOptions?.show).toEqual({ spendingCeilingMode: ['ceiling'] });
	expect(amount.typeOptions?.minValue).toBeGreaterThan(0);
	expect([field('spendingCeilingMode').default, amount.default]).toEqual(['ceiling', 10]);
	expect(amount.hint).toMatch(/For none, choose No Ceiling/);
	expect(amount.displayName).not.toMatch(/0 = None/);
	expect(field('allowChargingAutomations').displayOptions?.show).toEqual({
		spendingCeilingMode: ['ceiling'],
	});
	const maxCost = chargeProperties(
		{ resource: ['property'], operation: ['get'] },
		'the property',
	).find((property) => property.name === 'maxCost')!;
	expect(maxCost.hint).toMatch(/^0 buys nothing\./);
});
