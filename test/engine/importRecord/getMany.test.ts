import type { IDataObject } from 'n8n-workflow';

import { TOKENS } from '../../support/harness';
import {
	api,
	createImportList,
	importInto,
	importItemsOf,
	portlandRecords,
	runOk,
	useEngineSandbox,
} from '../../support/helpers';

const sb = useEngineSandbox();

const importList = (token: string = TOKENS.main) => createImportList(sb, 'CSV import', token);
const autoPurchase = { mapping: 'auto', chargeMode: 'purchase', maxCost: 10 };
const importItems = (listId: number, parameters: IDataObject = {}) =>
	runOk(sb, importItemsOf(listId, parameters));

describe('Import Record', () => {
	test("Get Many, Return All where the service gives a page shorter than asked for though more follow: the list's TotalImportItems shows it, and paging goes on from there", async () => {
		const listId = await importList();
		await runOk(sb, importInto(listId, autoPurchase), portlandRecords(25, 'Capped Pages Rd'));
		const firstTen = await api<{ results: IDataObject[] }>(
			sb,
			'GET',
			`/v1/lists/${listId}/import/items?Start=0&Limit=10`,
		);
		// A service that answers at most 10 a page, whatever Limit asks for: the first page as it would give it.
		sb.faults.push({
			method: 'GET',
			pathPrefix: `/v1/lists/${listId}/import/items`,
			count: 1,
			status: 200,
			body: { results: firstTen.body.results },
		});
		const all = await importItems(listId);
		expect(all).toHaveLength(25);
		expect(new Set(all.map((item) => item.ListImportItemID)).size).toBe(25);
		// With a filter the list's count is not the read's: no count is read, and the short page ends it.
		const before = sb.requests.length;
		await importItems(listId, { filters: { MatchScore: 0 } });
		expect(sb.requests.slice(before).map((request) => request.path)).toEqual([
			`/v1/lists/${listId}/import/items`,
		]);
	});
});
