/**
 * The trigger's list picker, as the editor asks for it (n8n's load-options context against the
 * sandbox): each list says whether it is monitored (activation refuses a list that is not), and the
 * chosen list is named whichever mode picked it (n8n's picker keeps a name only in "From List").
 */
import { LoadOptionsContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INode,
	type INodePropertyOptions,
	type IWorkflowBase,
} from 'n8n-workflow';

import { PropRadarTrigger } from '../../../nodes/PropRadar/PropRadarTrigger.node';
import { additionalDataFor, nodeTypes, registerNodeType, TOKENS } from '../../support/harness';
import { createList, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

const trigger = new PropRadarTrigger();
const TRIGGER_TYPE = 'n8n-nodes-propradar.propRadarTrigger';
registerNodeType(TRIGGER_TYPE, trigger);

/** The context n8n gives the trigger's methods when the editor asks for a picker's choices: the trigger node with its current parameters. */
function contextFor(parameters: IDataObject, path: string): ILoadOptionsFunctions {
	const node: INode = {
		id: 'trigger',
		name: 'PropRadar Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { propRadarApi: { id: 'cred-1', name: 'PropRadar account' } },
	};
	const workflow = new Workflow({
		id: 'picker',
		name: 'picker',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		staticData: {},
	});
	const additionalData = additionalDataFor({ baseUrl: sb.url, accessToken: TOKENS.main }, {
		id: 'picker',
		name: 'picker',
		nodes: [node],
		connections: {},
	} as unknown as IWorkflowBase);
	additionalData.currentNodeParameters = parameters as INode['parameters'];
	return new LoadOptionsContext(workflow, workflow.getNode(node.name)!, additionalData, path);
}

const search = (filter?: string) =>
	trigger.methods.listSearch.searchTriggerLists.call(
		contextFor({ listId: { __rl: true, mode: 'list', value: '' } }, 'parameters.listId'),
		filter,
	);
const statusOf = (listId: IDataObject): Promise<INodePropertyOptions[]> =>
	trigger.methods.loadOptions.getTriggerListStatus.call(
		contextFor({ listId, events: ['newMatches'] }, 'parameters.listStatus'),
	);

test('"From List" says of each list whether it is monitored, and the chosen name is what n8n keeps', async () => {
	const watched = await createList(sb, {
		listName: 'Watched Foreclosures',
		listType: 'dynamic',
		isMonitored: true,
		criteria: { criterion: [{ name: 'State', values: 'OR' }] },
	});
	const idle = await createList(sb, {
		listName: 'Idle Leads',
		listType: 'static',
		isMonitored: false,
	});
	const { results } = await search('leads');
	expect(results).toEqual([
		{
			name: 'Idle Leads (static, 0) · not monitored: turn monitoring on before activating',
			value: String(idle),
		},
	]);
	const [found] = (await search('watched')).results;
	expect(found.value).toBe(String(watched));
	expect(found.name).toMatch(/^Watched Foreclosures \(dynamic, \d+\) · monitored$/);
});

test('the chosen list is named with its monitoring, picked from the list or by ID', async () => {
	const idle = await createList(sb, {
		listName: 'Idle By ID',
		listType: 'static',
		isMonitored: false,
	});
	const byId = await statusOf({ __rl: true, mode: 'id', value: String(idle) });
	expect(byId).toEqual([
		{
			name: `Idle By ID (static, 0) · not monitored: turn monitoring on before activating (list ${idle})`,
			value: '',
		},
	]);
	const fromList = await statusOf({
		__rl: true,
		mode: 'list',
		value: String(idle),
		cachedResultName: 'Idle By ID (static, 0)',
	});
	expect(fromList).toEqual(byId);
});

test('no list, a list of another account, an ID that is not one: a line that says so, nothing bought', async () => {
	const theirs = await createList(sb, { listName: 'Not Yours', listType: 'static' }, TOKENS.second);
	const before = sb.requests.length;
	await expect(statusOf({ __rl: true, mode: 'list', value: '' })).resolves.toEqual([
		{ name: 'No list chosen yet', value: '' },
	]);
	const [other] = await statusOf({ __rl: true, mode: 'id', value: String(theirs) });
	expect(other.name).toMatch(new RegExp(`^List ${theirs} could not be read: `));
	const [notAnId] = await statusOf({ __rl: true, mode: 'id', value: 'abc' });
	expect(notAnId.name).toMatch(/^"abc" is not a list ID/);
	expect(
		sb.requests
			.slice(before)
			.every((request) => request.method === 'GET' && !request.query.has('Purchase')),
	).toBe(true);
});

test("the line is shown, not saved: its one option is the parameter's default, reloaded when the list changes", () => {
	const status = trigger.description.properties.find((property) => property.name === 'listStatus')!;
	expect(status.default).toBe('');
	expect(status.typeOptions?.loadOptionsDependsOn).toEqual(['listId.value']);
	const names = trigger.description.properties.map((property) => property.name);
	expect(names.indexOf('listStatus')).toBe(names.indexOf('listId') + 1);
});
