import { run, runOk, useEngineSandbox } from '../../support/helpers';

/** Property > Get Transactions: the Fields picker's suppression, and the documents' 50 field IDs. */
const sb = useEngineSandbox();

const transactions = (propId: string) =>
	sb.requests.filter((r) => r.path === `/v1/properties/${propId}/transactions`);

const STANDARD = [
	'TransactionID',
	'RecordingDate',
	'DocumentType',
	'DocumentNumber',
	'Amount',
	'Buyer',
	'Seller',
	'Lender',
	'LoanAmount',
	'LoanType',
];

test('Single Fields to Suppress leaves those fields out of every transaction', async () => {
	const records = await runOk(sb, {
		resource: 'property',
		operation: 'getTransactions',
		propId: 'P000051',
		fields: { fieldsets: ['Standard'], exclude: ['Buyer', 'Seller'] },
		chargeMode: 'purchase',
		maxCost: 5,
	});
	expect(records.length).toBeGreaterThan(0);
	for (const record of records) {
		const { _charge, ...fields } = record;
		expect(_charge).toBeDefined();
		expect(Object.keys(fields).sort()).toEqual(
			STANDARD.filter((field) => field !== 'Buyer' && field !== 'Seller').sort(),
		);
	}
	expect(transactions('P000051').at(-1)?.query.get('Fields')).toBe('Standard,-Buyer,-Seller');
});

test('custom field IDs and Unlisted Fields count together against the 50: refused before sending', async () => {
	const before = sb.requests.length;
	const ids = (from: number, count: number) =>
		Array.from({ length: count }, (_, i) => `cf${from + i}`).join(',');
	const result = await run(sb, {
		resource: 'property',
		operation: 'getTransactions',
		propId: 'P000051',
		fields: { other: ids(1, 26) },
		customFieldIds: ids(27, 25),
		chargeMode: 'purchase',
		maxCost: 5,
	});
	expect(result.error?.message).toBe('Too many custom field IDs: 51, at most 50');
	expect(sb.requests.length).toBe(before);

	// 50 in all, a suppressed one not counted: sent, and each comes back.
	const [first] = await runOk(sb, {
		resource: 'property',
		operation: 'getTransactions',
		propId: 'P000051',
		fields: { other: `${ids(1, 25)},-cf99` },
		customFieldIds: ids(26, 25),
		chargeMode: 'purchase',
		maxCost: 5,
	});
	expect(Object.keys(first).filter((key) => key.startsWith('Custom_'))).toHaveLength(50);
});
