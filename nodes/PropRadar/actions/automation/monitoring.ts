import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths, readList, type AutomationRecord } from '../../transport';
import { assertChargingAutomationAllowed, automationCharges } from '../../money';
import type { NumberedId } from '../../shared/ids';
import { fail, readFlag } from '../../shared/parameters';
import { fieldNames, LIST_FIELDS } from '../../shared/vocabulary';

// Automation > Configure and Webhook > Create turn lists' automations on. Automations only run on
// monitored lists (the lists document), and one that buys charges later, with no Max Cost: neither
// is set up unless the user asks for it.
export const optInProperties = (monitored: string, charging: string): INodeProperties[] => [
	{
		displayName: 'Turn On Monitoring',
		name: 'turnOnMonitoring',
		type: 'boolean',
		default: false,
		description: `Whether to switch monitoring on for ${monitored} that is not monitored. Automations only run on monitored lists; without this option such a list is refused and nothing is changed.`,
	},
	{
		displayName: 'Allow Charging Automation',
		name: 'allowChargingAutomation',
		type: 'boolean',
		default: false,
		description: charging,
	},
];

export const readOptIns = (context: IExecuteFunctions, itemIndex: number) => ({
	allowCharging: readFlag(
		context,
		itemIndex,
		'allowChargingAutomation',
		'Allow Charging Automation',
	),
	turnOn: readFlag(context, itemIndex, 'turnOnMonitoring', 'Turn On Monitoring'),
});

export const assertAllowed = (
	context: IExecuteFunctions,
	listId: NumberedId,
	automation: Partial<AutomationRecord>,
	allowCharging: boolean,
	itemIndex: number,
) =>
	assertChargingAutomationAllowed(
		context,
		`The automation of list ${listId}`,
		automationCharges(automation),
		allowCharging,
		itemIndex,
	);

// Refuses unmonitored lists unless `turnOn`, then turns them on; called once every other check has passed.
export async function monitorLists(
	context: IExecuteFunctions,
	listIds: NumberedId[],
	turnOn: boolean,
	itemIndex: number,
	doing: string,
): Promise<NumberedId[]> {
	const unmonitored: NumberedId[] = [];
	for (const listId of listIds) {
		const list = await readList(context, listId, {
			fields: fieldNames(LIST_FIELDS, 'ListID', 'isMonitored'),
			itemIndex,
		});
		if (Number(list?.isMonitored) === 0) unmonitored.push(listId);
	}
	if (unmonitored.length > 0 && !turnOn) {
		const which =
			unmonitored.length === 1
				? `List ${unmonitored[0]} is`
				: `Lists ${unmonitored.join(', ')} are`;
		fail(
			context,
			itemIndex,
			`${which} not monitored, so ${unmonitored.length === 1 ? 'its automation' : 'their automations'} would never fire`,
			`Nothing was changed (${doing}). Automations only run on monitored lists. Turn on the option "Turn On Monitoring" of this node to switch monitoring on as well, or switch it on with PropRadar > List > Update (Monitored).`,
		);
	}
	for (const listId of unmonitored)
		await apiRequest(context, {
			method: 'PATCH',
			path: paths.list(listId),
			body: { isMonitored: 1 },
			repeatable: true,
			itemIndex,
		});
	return unmonitored;
}
