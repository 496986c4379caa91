/**
 * What a model is told about the PropRadar tool (nodes/PropRadar/actions/toolDescriptions.ts),
 * read through n8n-workflow's own functions: the parameters n8n fills in for the node's tool
 * variant (`getNodeParameters`, its `@tool` display rule) and the description n8n hands the model
 * (`getToolDescriptionForNode`). The e2e tier reads the same from a model's side of a real agent.
 */
import { NodeHelpers, type INode, type INodeProperties, type INodeType } from 'n8n-workflow';

import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { resources } from '../../nodes/PropRadar/actions/resources';
import { TOOL_CHARGES } from '../../nodes/PropRadar/actions/toolDescriptions';
import { LIST_PRICES_CENTS } from '../../nodes/PropRadar/money';

const base = new PropRadar();
/** The tool variant as n8n makes it (n8n's convertNodeToAiTool): the same node, its name ending in "Tool". */
const tool = {
	...base,
	description: { ...base.description, name: `${base.description.name}Tool` },
} as INodeType;

/** Every operation, as resource.operation, and whether it has a Charge Mode. */
const operations = Object.entries(resources).flatMap(([resource, module]) => {
	const property = module.description.find((candidate) => candidate.name === 'operation')!;
	return (property.options as Array<{ value: string }>).map(({ value }) => {
		const charging = module.description.some(
			(candidate: INodeProperties) =>
				candidate.name === 'chargeMode' &&
				candidate.displayOptions?.show?.operation?.includes(value),
		);
		return { resource, operation: value, charging };
	});
});

function describedAs(nodeType: INodeType, parameters: Record<string, unknown>): string {
	const filled = NodeHelpers.getNodeParameters(
		nodeType.description.properties,
		parameters as INode['parameters'],
		true,
		false,
		{ typeVersion: 1 },
		nodeType.description,
	)!;
	const node = {
		id: 'tool',
		name: 'PropRadar',
		type: `n8n-nodes-propradar.${nodeType.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: filled,
	} as INode;
	return NodeHelpers.getToolDescriptionForNode(node, nodeType);
}

test('every operation with a Charge Mode has a price in the tool descriptions, and only those', () => {
	expect(
		operations
			.filter((entry) => entry.charging)
			.map((entry) => `${entry.resource}.${entry.operation}`)
			.sort(),
	).toEqual(Object.keys(TOOL_CHARGES).sort());
});

test.each(operations)(
	"$resource > $operation: the tool variant's description says what it costs",
	({ resource, operation, charging }) => {
		const key = `${resource}.${operation}`;
		if (!charging) {
			expect(describedAs(tool, { resource, operation })).toMatch(
				key === 'automation.configure'
					? /charged later, inside PropRadar/
					: /in PropRadar\. Free: this call charges nothing\./,
			);
			return;
		}
		const price = `$${(LIST_PRICES_CENTS[TOOL_CHARGES[key].kind] / 100).toFixed(2)} ${TOOL_CHARGES[key].per}`;
		const purchase = describedAs(tool, { resource, operation, chargeMode: 'purchase' });
		expect(purchase).toContain('This tool BUYS');
		expect(purchase).toContain(price);
		expect(purchase).toContain('Spending Ceiling per Execution');
		expect(purchase).toContain('maxCostNeeded');
		const preview = describedAs(tool, { resource, operation, chargeMode: 'preview' });
		expect(preview).toMatch(/^Preview what it costs to .* Free: nothing is bought or charged/);
		expect(preview).toContain(price);
		expect(preview).toContain('maxCostNeeded');
	},
);

test('n8n\'s automatic description was "<action> in PropRadar"; the node itself (not a tool) shows no Description', () => {
	expect(
		describedAs(base, { resource: 'property', operation: 'get', chargeMode: 'purchase' }),
	).toBe('Get a property in PropRadar');
	expect(
		describedAs(tool, { resource: 'property', operation: 'get', chargeMode: 'purchase' }),
	).toMatch(
		/^Get a property in PropRadar\. This tool BUYS: what it returns is charged, non-refundable, \$0\.10 per property/,
	);
});

test('the IDs a model fills get their formats, named as the editor names their $fromAI keys', () => {
	expect(
		describedAs(tool, { resource: 'property', operation: 'get', chargeMode: 'purchase' }),
	).toContain('IDs: Property ID (Property_ID) is a PropID, text such as P000123.');
	expect(
		describedAs(tool, { resource: 'person', operation: 'purchasePhone', chargeMode: 'purchase' }),
	).toContain('Person Key (Person_Key) is a PersonKey, text such as K000123A');
	expect(describedAs(tool, { resource: 'listItem', operation: 'remove' })).toContain(
		'IDs: List is a list ID, a whole number such as 42; Property ID (Property_ID) is a PropID, text such as P000123.',
	);
});

test('a description the user wrote is what the model gets', () => {
	expect(
		describedAs(tool, {
			resource: 'property',
			operation: 'get',
			chargeMode: 'purchase',
			toolDescription: 'Buy one property record.',
		}),
	).toBe('Buy one property record.');
});
