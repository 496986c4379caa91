/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The PropRadar credential the demo imports into n8n (scripts/n8n-host.js, `credentialData`), read
 * as n8n reads a stored credential when a node runs: its data completed with the credential type's
 * defaults (`NodeHelpers.getNodeParameters` over the properties, as n8n's CredentialsHelper does).
 * The demo's credential has the spending ceiling a credential new in the editor gets, and the
 * sandbox's Base URL of that start (issue 38).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NodeHelpers, type INodeParameters } from 'n8n-workflow';

import { PropRadarApi } from '../../credentials/PropRadarApi.credentials';
import { credentialData } from '../../scripts/n8n-host';

const credential = new PropRadarApi();
const property = (name: string) =>
	credential.properties.find((candidate) => candidate.name === name)!;

/** The credential's values as a node run gets them from what n8n stores. */
const asRun = (stored: object) =>
	NodeHelpers.getNodeParameters(
		credential.properties,
		stored as INodeParameters,
		true,
		false,
		null,
		null,
	)!;

const sandboxUrl = 'http://127.0.0.1:18787';

test("the demo's credential gets the ceiling of a new credential, for the sandbox the demo started", () => {
	const demo = asRun(credentialData({ sandboxUrl, ceiling: 'default' }));
	// A credential new in the editor: what is typed in, the rest left as the dialog shows it (n8n stores no value equal to its default).
	const fresh = asRun({ accessToken: 'sandbox-token', baseUrl: sandboxUrl });
	expect(demo).toEqual(fresh);
	expect(demo.spendingCeilingMode).toBe(property('spendingCeilingMode').default);
	expect(demo.spendingCeilingMode).not.toBe('none');
	expect(demo.spendingCeiling).toBe(property('spendingCeiling').default);
	expect(demo.baseUrl).toBe(sandboxUrl);
	expect(demo.accessToken).toBe('sandbox-token');
});

test("the e2e tier's credential, as before, has No Ceiling (each node run bounded by its own Max Cost)", () => {
	expect(asRun(credentialData({ sandboxUrl }))).toMatchObject({
		spendingCeilingMode: 'none',
		baseUrl: sandboxUrl,
	});
});

test('the demo asks for that credential, and the README says what its ceiling is', () => {
	const demo = readFileSync(join(__dirname, '..', '..', 'scripts', 'demo.js'), 'utf8');
	expect(demo).toMatch(/n8n\.prepare\(\{[^}]*ceiling: 'default'/);
	const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
	const tryIt = readme.slice(readme.indexOf('## Try it locally'), readme.indexOf('## Resources'));
	expect(tryIt).toContain(
		`spending ceiling of $${String(property('spendingCeiling').default)} per execution`,
	);
});

test("the Base URL field says where the address comes from: the PropRadar service, or the sandbox's address as its commands print it", () => {
	const baseUrl = property('baseUrl');
	expect(baseUrl.hint).toMatch(/PropRadar/);
	expect(baseUrl.hint).toContain('npm run demo');
	expect(baseUrl.hint).toContain('npm run sandbox');
});
