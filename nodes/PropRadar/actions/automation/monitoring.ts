import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths, readList } from '../../transport';
import { fieldNames, LIST_FIELDS } from '../../shared/vocabulary';
import { fail, readFlag } from '../../shared/parameters';

// Automations only run on monitored lists (the lists document), so one is not set up on an
// unmonitored list unless the user asks for monitoring to be switched on.
export function turnOnMonitoringProperty(
	show: IDisplayOptions['show'],
	what: string,
): INodeProperties {
	return {
		displayName: 'Turn On Monitoring',
		name: 'turnOnMonitoring',
		type: 'boolean',
		default: false,
		description: `Whether to switch monitoring on for ${what} that is not monitored. Automations only run on monitored lists; without this option such a list is refused and nothing is changed.`,
		displayOptions: { show },
	};
}

export function readAutomationOptIns(context: IExecuteFunctions, itemIndex: number) {
	return {
		allowCharging: readFlag(
			context,
			itemIndex,
			'allowChargingAutomation',
			'Allow Charging Automation',
		),
		turnOn: readFlag(context, itemIndex, 'turnOnMonitoring', 'Turn On Monitoring'),
	};
}

type ListId = Parameters<typeof paths.list>[0];

// Refuses unmonitored lists unless `turnOn`, then turns them on; called once every other check has passed.
export async function monitorLists(
	context: IExecuteFunctions,
	listIds: ListId[],
	turnOn: boolean,
	itemIndex: number,
	doing: string,
): Promise<ListId[]> {
	const unmonitored: ListId[] = [];
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
