import type { IDataObject } from 'n8n-workflow';

import { TOKENS } from '../../support/harness';
import { run, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();
const buying = { chargeMode: 'purchase', maxCost: 5 };
const ownersOf = (propId: string, parameters: IDataObject = buying) => ({
	resource: 'person',
	operation: 'getOwners',
	propId,
	...parameters,
});

describe('Person', () => {
	test('owners: preview, purchase with fieldsets and suppression', async () => {
		const [quote] = await runOk(sb, ownersOf('P000500', { chargeMode: 'preview' }));
		expect(quote).toMatchObject({ preview: true, PropID: 'P000500' });
		const owners = await runOk(
			sb,
			ownersOf('P000500', { fields: { fieldsets: ['overview'], exclude: ['Email'] }, ...buying }),
		);
		expect(owners.length).toBe(quote.resultCount);
		expect(owners[0]).toHaveProperty('PersonKey');
		expect(owners[0]).toHaveProperty('Phone');
		expect(owners[0]).not.toHaveProperty('Email');
		expect(owners[0]).not.toHaveProperty('MailAddress');
	});

	test('sandbox-broke: a 402 on a purchase, with what to do', async () => {
		const result = await run(sb, ownersOf('P000700'), undefined, TOKENS.broke);
		expect(result.error?.httpCode).toBe('402');
		expect(result.error?.description).toContain('Nothing was charged');
	});
});
