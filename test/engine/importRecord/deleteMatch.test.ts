import type { IDataObject } from 'n8n-workflow';

import { TOKENS } from '../../support/harness';
import {
	api,
	createImportList,
	importInto,
	listRef,
	runOk,
	useEngineSandbox,
} from '../../support/helpers';

const sb = useEngineSandbox();

/** Records whose addresses are real sandbox properties (read straight from the sandbox). */
async function realAddresses(count: number, token: string = TOKENS.main): Promise<IDataObject[]> {
	const { body } = await api<{ results: IDataObject[] }>(
		sb,
		'POST',
		`/v1/properties?Purchase=1&Limit=${count}&Fields=PropID,Address,City,State,ZipFive`,
		{ Criteria: [{ name: 'State', value: ['OR'] }] },
		token,
	);
	return body.results.map(({ Address, City, State, ZipFive }) => ({
		street: Address,
		Address,
		City,
		State,
		ZipFive: String(ZipFive),
	}));
}

const importList = (token: string = TOKENS.main) => createImportList(sb, 'CSV import', token);
const updateMatch = (listId: number, parameters: IDataObject) => ({
	resource: 'importRecord',
	operation: 'updateMatch',
	listId: listRef(listId),
	...parameters,
});

describe('Import Record', () => {
	test('manual mapping, the X-Prop-Access-Token header, update and delete a match', async () => {
		const listId = await importList();
		const [record] = await realAddresses(1);
		const [imported] = await runOk(
			sb,
			importInto(listId, {
				mapping: 'manual',
				recordFields: {
					field: [
						{ name: 'Address', value: '={{ $json.street }}' },
						{ name: 'ZipFive', value: '={{ $json.ZipFive }}' },
					],
				},
				chargeMode: 'purchase',
				maxCost: 5,
				importOptions: { accessTokenHeader: true },
			}),
			[record],
		);
		expect(imported.PropertyStatus).toBe('Matched');
		const purchase = sb
			.sent(`/v1/lists/${listId}/import/items`, 'POST')
			.find((r) => r.query.get('Purchase') === '1')!;
		expect(JSON.parse(purchase.body)).toEqual([
			{ Address: record.street, ZipFive: record.ZipFive },
		]);
		expect(purchase.accessTokenHeader).toBe(TOKENS.main);

		const [updated] = await runOk(
			sb,
			updateMatch(listId, { importItemId: imported.ListImportItemID, matchPropId: 'P000777' }),
		);
		expect(updated).toMatchObject({ PropID: 'P000777', PropertyStatus: 'Selected' });
		const [deleted] = await runOk(sb, {
			resource: 'importRecord',
			operation: 'deleteMatch',
			listId: listRef(listId),
			importItemId: imported.ListImportItemID,
		});
		expect(deleted).toEqual({
			deleted: true,
			ListID: listId,
			ListImportItemID: imported.ListImportItemID,
			deleteCount: 1,
		});
	});
});
