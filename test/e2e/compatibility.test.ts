/**
 * The n8n releases the package supports, the oldest and the newest (scripts/n8n-versions.js): each
 * a real n8n (scripts/n8n-install.sh oldest, and the newest) with the packed package installed as a
 * community package, started once against a sandbox of its own. In each: n8n loads the package; a
 * workflow builds a dynamic list from criteria and previews a search of its properties (free); one
 * purchase, Property > Get under a Max Cost, is charged as the sandbox's charge log says; and the
 * PropRadar Trigger (example 4, saved through n8n's REST API as the editor saves an imported file)
 * is activated, registers its webhook with the service, and a new match it is sent starts an
 * execution; deactivated, it leaves no webhook behind; and the credential's ceiling holds across a
 * Wait node and an n8n restart.
 */
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { PRICES_CENTS } from '../../sandbox/charges';
import { withoutFreeCredits } from '../support/freeCredits';
import {
	loadedTypes,
	output,
	servedWithSecret,
	startN8n,
	stopN8n,
	waitFor,
	type RunData,
} from '../support/realN8n';
import { call, sandboxCharges } from '../support/sandboxApi';
import { example, propRadarNode, runByHand } from '../support/workflows';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, N8nHost, RunningN8n } from '../../scripts/n8n-host';
import { seedDemoData } from '../../scripts/demo-data';
import { ceilingAcrossWaitAndRestart } from '../support/ceilingAcrossWait';

jest.setTimeout(300_000);

type Node = { name: string; type: string; parameters: Record<string, unknown> };
type Workflow = { id: string; name: string; nodes: Node[]; connections: unknown };

/** Example 1 with its export previewed instead of bought: a dynamic list from criteria, then a free quote of a search of its properties. */
function listAndSearch(): Workflow {
	const workflow = example<Workflow>('01-dynamic-list-export.json');
	workflow.id = 'PropRadarCompat1';
	workflow.name = 'compatibility: a dynamic list, its properties previewed';
	const search = workflow.nodes.find((node) => node.name === 'Export properties')!;
	search.parameters.chargeMode = 'preview';
	delete search.parameters.maxCost;
	return workflow;
}

/** A manual trigger, then Property > Get of one property, bought under a Max Cost of $1. */
const purchase = () =>
	runByHand(
		{ id: 'PropRadarCompat2', name: 'compatibility: one property bought under a cap' },
		propRadarNode('buy', 'Buy', [220, 0], {
			resource: 'property',
			operation: 'get',
			propId: 'P000777',
			chargeMode: 'purchase',
			maxCost: 1,
		}),
	);

describe.each([
	['oldest', n8n.N8N_VERSIONS.oldest],
	['newest', n8n.N8N_VERSIONS.newest],
])('the %s supported n8n, %s', (_which, version) => {
	let sandbox: RunningSandbox;
	let host: RunningN8n;
	let prepared: N8nHost;
	let client: N8nClient;

	const sandboxApi = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
		(await call(sandbox.url, method, path, { body })).body as T;
	const charges = async () => (await sandboxCharges(sandbox.url)).log;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		await seedDemoData(sandbox.url);
		({ prepared, host, client } = await startN8n({
			sandboxUrl: sandbox.url,
			n8nVersion: version,
			workflows: [listAndSearch(), purchase()],
		}));
	});

	afterAll(async () => {
		await stopN8n(host, sandbox);
	});

	test('it is that release, and it loads the package: both node types and the credential', async () => {
		const settings = (await client.rest('GET', '/settings')) as { versionCli: string };
		expect(settings.versionCli).toBe(version);
		const names = await loadedTypes(host.url, client, 'nodes');
		expect(names).toEqual(
			expect.arrayContaining([
				'n8n-nodes-propradar.propRadar',
				'n8n-nodes-propradar.propRadarTrigger',
			]),
		);
		expect(await loadedTypes(host.url, client, 'credentials')).toContain('propRadarApi');
	});

	test('a dynamic list from criteria, then a free preview of a search of its properties: nothing charged', async () => {
		const before = (await charges()).length;
		const run = (await n8n.runWorkflow(client, 'PropRadarCompat1')) as RunData;
		const [list] = output(run, 'Create dynamic list');
		expect(list).toMatchObject({ ListName: 'Oregon pools with equity', ListType: 'dynamic' });
		expect(Number(list.TotalCount)).toBeGreaterThan(0);
		const [quote] = output(run, 'Export properties');
		expect(quote).toMatchObject({
			preview: true,
			resultCount: Math.min(25, Number(list.TotalCount)),
		});
		expect((await charges()).slice(before)).toEqual([]);
	});

	test('one purchase under a Max Cost: charged once, at its price, as the node says', async () => {
		// No free export credits left: the property is paid for from the balance.
		withoutFreeCredits(sandbox);
		const before = (await charges()).length;
		const run = (await n8n.runWorkflow(client, 'PropRadarCompat2')) as RunData;
		const bought = output(run, 'Buy');
		const price = (PRICES_CENTS.property / 100).toFixed(2);
		expect(bought).toEqual([
			expect.objectContaining({
				PropID: 'P000777',
				_charge: { totalCost: price, resultCount: 1, runTotalCost: price },
			}),
		]);
		expect((await charges()).slice(before)).toEqual([
			{
				at: expect.any(String),
				kind: 'property',
				quantity: 1,
				creditsUsed: 0,
				cents: PRICES_CENTS.property,
				what: 'property P000777',
			},
		]);
	});

	test('the trigger: activated, registered with the service, a new match starts an execution; deactivated, no webhook left', async () => {
		const hooks = async () =>
			(
				await sandboxApi<{ results: Array<{ HookUrl: string; Secret: string }> }>(
					'GET',
					'/v1/integrations/webhooks',
				)
			).results;
		// n8n 2.0 activates only a version from a workflow's history, which its CLI import does not
		// write (2.41's does): the workflow is saved through the REST API, as the editor does.
		const { name, nodes, connections, settings } = example<Workflow & { settings: unknown }>(
			'04-foreclosures-to-crm.json',
		);
		const { id } = (await client.rest('POST', '/workflows', {
			name,
			nodes,
			connections,
			settings,
			active: false,
		})) as { id: string };
		await n8n.activate(client, id);
		// n8n answers the activation before the trigger's registration has finished.
		const [hook] = await waitFor('the webhook registered', async () => {
			const registered = await hooks();
			return registered.length > 0 ? registered : undefined;
		});
		expect(hook.HookUrl).toBe(`${host.url}/webhook/5b0c7a36-8f1e-4d52-9a6b-3e2f1c0d4a71/webhook`);
		// Until n8n serves the route and holds the trigger's secret it answers 404 or 401; then a
		// delivery without events gets 400 from the trigger and starts nothing.
		await servedWithSecret(hook);

		// A new property in list 1 ("Oregon foreclosures"): the service delivers the New Match.
		const match = await sandboxApi<{ PropID: string }>('POST', '/_sandbox/simulate/new-match', {
			ListID: 1,
		});
		const lead = await waitFor('the new match in the CRM', async () =>
			(
				await sandboxApi<{ results: Array<{ body: Record<string, unknown> }> }>(
					'GET',
					'/_sandbox/crm',
				)
			).results.find((posted) => posted.body.propId === match.PropID),
		).catch(async (error: Error) => {
			throw new Error(
				`${error.message}; the sandbox's delivery log: ${JSON.stringify(await sandboxApi('GET', '/_sandbox/deliveries?wait=1'))}`,
			);
		});
		expect(lead.body).toMatchObject({
			source: 'PropRadar',
			event: 'New Match',
			list: 'Oregon foreclosures',
		});
		const filter = encodeURIComponent(JSON.stringify({ workflowId: id }));
		const runs = await waitFor('the execution to end', async () => {
			const { results } = (await client.rest('GET', `/executions?filter=${filter}`)) as {
				results: Array<{ status: string }>;
			};
			return results.length > 0 && results.every((run) => !['new', 'running'].includes(run.status))
				? results
				: undefined;
		});
		expect(runs.map((run) => run.status)).toEqual(['success']);

		await n8n.deactivate(client, id);
		await waitFor('no webhook left', async () => ((await hooks()).length === 0 ? true : undefined));
	});

	// Early 2.x releases give a node no custom data of its own: the tally is kept in the same store through $execution.
	test("the credential's ceiling holds across a Wait node and an n8n restart: five of six bought under a ceiling that fits five", async () => {
		const result = await ceilingAcrossWaitAndRestart(sandbox, prepared, host);
		host = result.host;
		client = await n8n.login(host);
		// Property > Get over several items buys them in one request of the search (its PropID criterion).
		expect(result.bought).toEqual(['property search, 3 properties']);
	});
});
