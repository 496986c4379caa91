/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The compiled node descriptions and the credential stay byte for byte as committed in
 * test/fixtures/node-descriptions.json: a move of code must not change what n8n reads. A change
 * meant to alter them rewrites the fixture on purpose:
 * `WRITE_NODE_DESCRIPTIONS=1 npm run test:unit -- test/unit/nodeDescriptions.test.ts`
 * (which writes it and then fails, so that the run that writes is never the one that passes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ICredentialType, IDataObject, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { PropRadarPollingTrigger } from '../../nodes/PropRadar/PropRadarPollingTrigger.node';
import { PropRadarTrigger } from '../../nodes/PropRadar/PropRadarTrigger.node';
import { NODE_DESCRIPTIONS_FIXTURE, serialisedDescriptions } from '../support/nodeDescriptions';
import { allExamples } from '../support/workflows';

const fixture = join(__dirname, '..', '..', NODE_DESCRIPTIONS_FIXTURE);

test('the three nodes and the credential describe themselves exactly as the committed fixture', () => {
	const now = serialisedDescriptions();
	if (process.env.WRITE_NODE_DESCRIPTIONS === '1') {
		writeFileSync(fixture, now);
		throw new Error(
			`${NODE_DESCRIPTIONS_FIXTURE} written; run again without WRITE_NODE_DESCRIPTIONS`,
		);
	}
	expect(now).toBe(readFileSync(fixture, 'utf8'));
});

describe('the example workflows load unchanged through the nodes package.json names', () => {
	type SavedNode = {
		name: string;
		type: string;
		typeVersion: number;
		parameters: IDataObject;
		credentials?: Record<string, unknown>;
	};
	const root = join(__dirname, '..', '..');
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
		name: string;
		n8n: { nodes: string[]; credentials: string[] };
	};
	// n8n loads dist/<path>.js; the source of each is <path>.ts.
	const source = (built: string) =>
		join(root, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
	const loaded = (built: string) =>
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- a module named by package.json, as n8n loads it
		Object.values(require(source(built)) as object)[0] as new () => unknown;
	const nodeTypes = new Map<string, INodeType>(
		manifest.n8n.nodes.map((built) => {
			const node = new (loaded(built))() as INodeType;
			return [`${manifest.name}.${node.description.name}`, node];
		}),
	);
	const credentialNames = manifest.n8n.credentials.map(
		(built) => (new (loaded(built))() as ICredentialType).name,
	);
	const saved = allExamples<{ nodes: SavedNode[] }>()
		.flatMap((workflow) => workflow.nodes)
		.filter((node) => node.type.startsWith(`${manifest.name}.`));

	test('the examples hold both kinds of node the package ships with saved parameters', () => {
		expect(new Set(saved.map((node) => node.type))).toEqual(
			new Set(['n8n-nodes-propradar.propRadar', 'n8n-nodes-propradar.propRadarTrigger']),
		);
	});

	test.each(saved.map((node) => [node.name, node] as const))(
		'%s: its type and version are registered, its credential exists, its parameters read back as saved',
		(_name, node) => {
			const nodeType = nodeTypes.get(node.type);
			expect(nodeType).toBeDefined();
			const { description } = nodeType!;
			expect([description.version].flat()).toContain(node.typeVersion);
			for (const credential of Object.keys(node.credentials ?? {}))
				expect(credentialNames).toContain(credential);
			const parameters = NodeHelpers.getNodeParameters(
				description.properties,
				node.parameters as INodeParameters,
				true,
				false,
				node as never,
				description,
			);
			expect(parameters).toMatchObject(node.parameters);
		},
	);
});

describe('each node registers only the methods its own description names', () => {
	const nodes: Array<[string, INodeType]> = [
		['PropRadar', new PropRadar()],
		['PropRadarTrigger', new PropRadarTrigger()],
		['PropRadarPollingTrigger', new PropRadarPollingTrigger()],
	];
	test.each(nodes)('%s', (_name, node) => {
		const named = new Set(
			[
				...JSON.stringify(node.description).matchAll(
					/"(?:searchListMethod|loadOptionsMethod)":"(\w+)"/g,
				),
			].map(([, method]) => method),
		);
		const registered = Object.values(node.methods ?? {}).flatMap((group) =>
			Object.keys(group as object),
		);
		expect(registered.sort()).toEqual([...named].sort());
	});
});
