import { TOKENS } from '../../support/harness';
import { createImportList, run, updateMatchOf, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

const importList = (token: string = TOKENS.main) => createImportList(sb, 'CSV import', token);

describe('Import Record', () => {
	test('a correction without a Property ID or Person Key, or with a bad one, is refused before sending', async () => {
		const listId = await importList();
		const none = await run(sb, updateMatchOf(listId, { importItemId: 1 }));
		expect(none.error?.message).toBe(
			'Property ID or Person Key: give at least one to correct the match',
		);
		const before = sb.requests.length;
		for (const [name, value] of [
			['matchPropId', 'P1/../2'],
			['matchPersonKey', 'K 1'],
			['matchPropId', '#x'],
		]) {
			const refused = await run(sb, updateMatchOf(listId, { importItemId: 1, [name]: value }));
			expect(refused.error?.message).toContain(
				name === 'matchPropId' ? 'Property ID: ' : 'Person Key: ',
			);
		}
		expect(sb.requests.length).toBe(before);
	});
});
