import { TOKENS } from '../../support/harness';
import {
	createImportList,
	importInto,
	listRef,
	realAddresses,
	runOk,
	updateMatchOf,
	useEngineSandbox,
} from '../../support/helpers';

const sb = useEngineSandbox();

const importList = (token: string = TOKENS.main) => createImportList(sb, 'CSV import', token);

describe('Import Record', () => {
	test('manual mapping, the X-Prop-Access-Token header, update and delete a match', async () => {
		const listId = await importList();
		const [record] = await realAddresses(sb, 1);
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
			updateMatchOf(listId, { importItemId: imported.ListImportItemID, matchPropId: 'P000777' }),
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
