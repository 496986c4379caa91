/**
 * Automation > Configure reads in the order of the task: whether and on what the automation fires,
 * then what it does. n8n's lint keeps a collection's options alphabetical, and n8n shows them in
 * that order (in "Add Field" and once added), so the names carry the order; the saved names (the
 * API's fields) are unchanged, so saved workflows run as before.
 */
import type { INodeProperties } from 'n8n-workflow';

import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { api, createList, listRef, runOk, useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();

const automation = new PropRadar().description.properties.find(
	(property) => property.name === 'automation',
)!;
const options = automation.options as INodeProperties[];

test('Automation Enabled and Fires On come first, then every action, each "Then ..."', () => {
	expect(options.slice(0, 2).map((option) => [option.name, option.displayName])).toEqual([
		['isEnabled', 'Automation Enabled'],
		['Triggers', 'Fires On'],
	]);
	for (const action of options.slice(2)) expect(action.displayName).toMatch(/^Then /);
	// What n8n lists: in the options' own order, which its lint requires to be alphabetical by name shown.
	const shown = options.map((option) => option.displayName);
	expect(shown).toEqual([...shown].sort((a, b) => a.localeCompare(b)));
});

test("a configuration saved with the API's field names is written as before", async () => {
	const listId = await createList(sb, {
		listName: 'Task Order',
		listType: 'static',
		isMonitored: true,
	});
	const [written] = await runOk(sb, {
		resource: 'automation',
		operation: 'configure',
		listId: listRef(listId),
		configureMode: 'update',
		automation: { isEnabled: true, Triggers: 'New Matches,Status Changes', SetInterestLevel: 4 },
	});
	expect(written).toMatchObject({
		isEnabled: 1,
		Triggers: 'New Matches,Status Changes',
		SetInterestLevel: 4,
	});
	const { body } = await api<{ results: Array<Record<string, unknown>> }>(
		sb,
		'GET',
		`/v1/lists/${listId}/automations`,
	);
	expect(body.results[0]).toMatchObject({
		isEnabled: 1,
		Triggers: 'New Matches,Status Changes',
		SetInterestLevel: 4,
	});
});
