import type { IDataObject } from 'n8n-workflow';

import { TOKENS } from '../../support/harness';
import {
	api,
	createImportList,
	importInto,
	run,
	sandboxCharges,
	useEngineSandbox,
} from '../../support/helpers';

const sb = useEngineSandbox();

const charges = (token: string) => sandboxCharges(sb, token);
const importList = () => createImportList(sb, 'lead file');
const sentBodies = (listId: number, purchase: '0' | '1') =>
	sb
		.sent(`/v1/lists/${listId}/import/items`, 'POST')
		.filter((r) => r.query.get('Purchase') === purchase)
		.map((r) => JSON.parse(r.body) as IDataObject[]);

/** A real sandbox property, its address as a lead file would hold it. */
async function realProperty(): Promise<IDataObject> {
	const { body } = await api<{ results: IDataObject[] }>(
		sb,
		'POST',
		'/v1/properties?Purchase=1&Limit=1&Fields=PropID,Address,City,State,ZipFive',
		{ Criteria: [{ name: 'State', value: ['OR'] }] },
	);
	return body.results[0];
}

describe('Import Record > Import with a messy lead file', () => {
	test('ZIP+4, a ZIP without its leading zero, a full state name and a junk e-mail are sent (normalised where unambiguous, said in the item); a row with no usable field is an error item of its own, not quoted or charged', async () => {
		const listId = await importList();
		const property = await realProperty();
		const rows: IDataObject[] = [
			{
				Address: property.Address,
				City: property.City,
				State: 'Oregon',
				ZipFive: `${String(property.ZipFive)}-1234`,
			},
			{ Address: '12 Elm St', City: 'Boston', State: 'ma', ZipFive: 2134 },
			{ notes: 'called twice', Email: '', ZipFive: { five: 97202 } },
			{ FullName: 'Ann Lee', Email: 'not an address', State: 'Oregn', ZipFive: '972' },
		];
		const before = await charges(TOKENS.main);
		const result = await run(
			sb,
			importInto(listId, { mapping: 'auto', chargeMode: 'purchase', maxCost: 1 }),
			rows,
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		const [first, second, third, fourth] = result.json;

		expect(first).toMatchObject({
			imported: true,
			PropertyStatus: 'Matched',
			record: { State: 'OR', ZipFive: String(property.ZipFive) },
		});
		expect(first.notes).toEqual([
			`State "Oregon" sent as "OR"`,
			`ZipFive "${String(property.ZipFive)}-1234" sent as "${String(property.ZipFive)}" (ZIP+4 cut to its five digits)`,
		]);
		expect(second).toMatchObject({ imported: true, record: { State: 'MA', ZipFive: '02134' } });
		expect(second.notes).toContain(
			'ZipFive "2134" sent as "02134" (its lost leading zero put back)',
		);
		expect(third).toMatchObject({
			imported: false,
			error: 'Not imported: the item at index 2 has no record field to send',
		});
		expect(String(third.description)).toContain(
			'ZipFive left out: it is an object, not text or a number',
		);
		expect(String(third.description)).toContain('This item was not sent and not charged');
		expect(fourth).toMatchObject({
			imported: true,
			record: { FullName: 'Ann Lee', Email: 'not an address', State: 'Oregn', ZipFive: '972' },
		});
		expect(fourth.notes).toEqual([
			'Email "not an address" is not an e-mail address; sent as given',
			'State "Oregn" is not a US state name or code; sent as given',
			'ZipFive "972" is not five digits; sent as given',
		]);

		// The row that cannot be sent is neither quoted nor bought: three records, three charges of $0.05 (or credits).
		expect(sentBodies(listId, '0')).toEqual([[first.record, second.record, fourth.record]]);
		expect(sentBodies(listId, '1')).toEqual([[first.record, second.record, fourth.record]]);
		const after = await charges(TOKENS.main);
		expect(after.log.length - before.log.length).toBe(1);
		expect(after.log.at(-1)).toMatchObject({ quantity: 3 });
	});

	test('preview: the quote covers only the records that can be sent, and says which items are not sent and what was normalised', async () => {
		const listId = await importList();
		const result = await run(sb, importInto(listId, { chargeMode: 'preview' }), [
			{ Address: '1 Elm St', ZipFive: '97202-0001' },
			{ other: 1 },
		]);
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(1);
		expect(result.json[0]).toMatchObject({
			preview: true,
			records: 1,
			resultCount: 1,
			notSent: [{ itemIndex: 1, imported: false }],
		});
		expect(result.json[0].notes).toEqual([
			'item at index 0: ZipFive "97202-0001" sent as "97202" (ZIP+4 cut to its five digits)',
		]);
		expect(sentBodies(listId, '0')).toEqual([[{ Address: '1 Elm St', ZipFive: '97202' }]]);
	});

	test('no item with a usable field: refused before anything is sent; with On Error: Continue, one error item per input item', async () => {
		const parameters = importInto(1, { chargeMode: 'purchase', maxCost: 1 });
		const items = [{ foo: 'bar' }, { Email: '  ' }];
		const before = sb.requests.length;
		const refused = await run(sb, parameters, items);
		expect(refused.error?.message).toBe(
			'Nothing to import: none of the 2 input items has a record field',
		);
		expect(refused.error?.description).toContain('Nothing was sent and nothing was charged');
		expect(sb.requests.length).toBe(before);
		const continued = await run(sb, parameters, items, TOKENS.main, true);
		expect(continued.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(sb.requests.length).toBe(before);
	});

	test('Fields: the import-item fieldset picker is sent with the quote and the purchase, and shapes each imported item', async () => {
		const listId = await importList();
		const property = await realProperty();
		const result = await run(
			sb,
			importInto(listId, {
				chargeMode: 'purchase',
				maxCost: 1,
				fields: { include: ['ListImportItemID', 'MatchScore', 'PropID', 'Address'] },
			}),
			[{ Address: property.Address, ZipFive: property.ZipFive }],
		);
		expect(result.error).toBeUndefined();
		const posts = sb.sent(`/v1/lists/${listId}/import/items`, 'POST');
		expect(posts.map((r) => r.query.get('Fields'))).toEqual([
			'ListImportItemID,MatchScore,PropID,Address',
			'ListImportItemID,MatchScore,PropID,Address',
		]);
		const { _charge, record, imported, ...item } = result.json[0];
		expect(imported).toBe(true);
		expect(_charge).toBeDefined();
		expect(record).toEqual({ Address: property.Address, ZipFive: String(property.ZipFive) });
		expect(Object.keys(item).sort()).toEqual([
			'Address',
			'ListImportItemID',
			'MatchScore',
			'PropID',
		]);
		expect(item.PropID).toBe(property.PropID);

		const bad = await run(
			sb,
			importInto(listId, { chargeMode: 'preview', fields: { include: ['Owner Name'] } }),
			[{ Address: '1 Elm St' }],
		);
		expect(bad.error?.message).toBe('Fields: Owner Name is not allowed here');
	});
});
