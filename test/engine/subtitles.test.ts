/**
 * The canvas subtitles of the PropRadar node and the PropRadar Trigger, evaluated as the editor
 * evaluates them: n8n-workflow's expression over the node's parameters
 * (`getSimpleParameterValue`, mode "internal"). The browser tier shows them on the canvas of a
 * real n8n.
 */
import {
	NodeHelpers,
	Workflow,
	type INode,
	type INodeParameters,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { PropRadarTrigger } from '../../nodes/PropRadar/PropRadarTrigger.node';
import { nodeTypes, registerNodeType, useExpressionEngine } from '../support/harness';

// The editor evaluates subtitles in the browser, under n8n's frontend engine: legacy by default
// (N8N_EXPRESSION_ENGINE_FRONTEND), whatever engine runs the workflows.
useExpressionEngine('legacy');

const description = new PropRadar().description;
const trigger = new PropRadarTrigger();
const triggerDescription = trigger.description;
registerNodeType(`n8n-nodes-propradar.${triggerDescription.name}`, trigger);

function subtitleOf(parameters: INodeParameters, of: INodeTypeDescription = description): unknown {
	const node: INode = {
		id: 'subtitle',
		name: of.defaults.name ?? of.displayName,
		type: `n8n-nodes-propradar.${of.name}`,
		typeVersion: 1,
		position: [0, 0],
		// The parameters as n8n holds them for a node on the canvas: defaults filled in.
		parameters:
			NodeHelpers.getNodeParameters(of.properties, parameters, true, false, null, of) ?? {},
	};
	const workflow = new Workflow({
		id: 'subtitle',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	return workflow.expression.getSimpleParameterValue(node, of.subtitle, 'internal', {});
}

test('the subtitle reads as the panel names the operation and the resource', () => {
	expect(subtitleOf({ resource: 'person', operation: 'getOwners' })).toBe('Get Owners · Person');
	expect(subtitleOf({ resource: 'importRecord', operation: 'updateMatch' })).toBe(
		'Update Match · Import Record',
	);
	expect(subtitleOf({ resource: 'account', operation: 'getStatusLabels' })).toBe(
		'Get Status Level Labels · Account',
	);
});

test('a new node, with nothing chosen yet, shows its default resource and operation by name', () => {
	expect(subtitleOf({})).toBe('Get Many · List');
});

test('every operation of every resource has a subtitle made of the names the panel shows', () => {
	const resource = description.properties.find((property) => property.name === 'resource')!;
	for (const { name: resourceName, value: resourceValue } of resource.options as Array<{
		name: string;
		value: string;
	}>) {
		const selector = description.properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resourceValue),
		)!;
		for (const { name, value } of selector.options as Array<{ name: string; value: string }>) {
			expect(subtitleOf({ resource: resourceValue, operation: value })).toBe(
				`${name} · ${resourceName}`,
			);
		}
	}
});

// What the subtitle read for every operation while it was a hand-kept map in PropRadar.node.ts;
// it is now built from the operations' names, and must read the same.
const RECORDED_SUBTITLES: Array<[string, string, string]> = [
	['account', 'getMembers', 'Get Members · Account'],
	['account', 'getStatusLabels', 'Get Status Level Labels · Account'],
	['automation', 'configure', 'Configure · Automation'],
	['automation', 'get', 'Get · Automation'],
	['importRecord', 'deleteMatch', 'Delete Match · Import Record'],
	['importRecord', 'getMany', 'Get Many · Import Record'],
	['importRecord', 'import', 'Import · Import Record'],
	['importRecord', 'updateMatch', 'Update Match · Import Record'],
	['list', 'create', 'Create · List'],
	['list', 'delete', 'Delete · List'],
	['list', 'get', 'Get · List'],
	['list', 'getMany', 'Get Many · List'],
	['list', 'update', 'Update · List'],
	['listItem', 'add', 'Add · List Item'],
	['listItem', 'getMany', 'Get Many · List Item'],
	['listItem', 'remove', 'Remove · List Item'],
	['person', 'getOwners', 'Get Owners · Person'],
	['person', 'getRecords', 'Get Records · Person'],
	['person', 'purchaseEmail', 'Purchase Email · Person'],
	['person', 'purchasePhone', 'Purchase Phone · Person'],
	['property', 'get', 'Get · Property'],
	['property', 'getComps', 'Get Comps · Property'],
	['property', 'getEvictions', 'Get Evictions · Property'],
	['property', 'getParcels', 'Get Parcels · Property'],
	['property', 'getTransactions', 'Get Transactions · Property'],
	['property', 'search', 'Search · Property'],
	['webhook', 'create', 'Create · Webhook'],
	['webhook', 'delete', 'Delete · Webhook'],
	['webhook', 'getMany', 'Get Many · Webhook'],
];

test.each(RECORDED_SUBTITLES)(
	'the subtitle of %s > %s reads as recorded: %s',
	(resource, operation, expected) => {
		expect(subtitleOf({ resource, operation })).toBe(expected);
	},
);

test('an operation the resource does not have gets no subtitle, as before', () => {
	expect(subtitleOf({ resource: 'list', operation: 'purchasePhone' })).toBeUndefined();
});

describe("the trigger's subtitle names the events it starts on", () => {
	test.each([
		[['newMatches'], 'New Matches'],
		[['statusChanges'], 'Status Changes'],
		[['newMatches', 'statusChanges'], 'New Matches + Status Changes'],
		// Events given by an expression as comma-separated text, which the trigger takes too.
		['=newMatches', 'New Matches'],
		['=statusChanges', 'Status Changes'],
		['={{ "newMatches,statusChanges" }}', 'New Matches + Status Changes'],
	])('events %j: %s', (events, expected) => {
		expect(
			subtitleOf({ events, listId: { __rl: true, mode: 'id', value: '12' } }, triggerDescription),
		).toBe(expected);
	});
});
