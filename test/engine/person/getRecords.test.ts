import type { IDataObject } from 'n8n-workflow';

import { run, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();
const buying = { chargeMode: 'purchase', maxCost: 5 };

describe('Person', () => {
	test('records of each kind, charged, with their fieldsets', async () => {
		const recordsOf = (personKey: string, recordKind: string, parameters: IDataObject) => ({
			resource: 'person',
			operation: 'getRecords',
			personKey,
			recordKind,
			returnAll: true,
			...parameters,
		});
		for (const kind of ['bankruptcies', 'divorces', 'liens', 'probates', 'relatives']) {
			const records = await runOk(sb, recordsOf('K000010A', kind, buying));
			for (const record of records) expect(record.PersonKey).toBe('K000010A');
		}
		const preview = { chargeMode: 'preview' };
		const [quote] = await runOk(sb, recordsOf('K000010A', 'liens', preview));
		expect(quote).toMatchObject({ preview: true, records: 'liens' });
		const unknown = await run(sb, recordsOf('NOPE', 'liens', preview));
		expect(unknown.error?.httpCode).toBe('404');
	});
});
