import type { ListRecord } from '../transport';

/**
 * How the trigger shows a list: its name, kind and size, and whether it is monitored, since only a
 * monitored list's automation fires and activation refuses any other. Not a method itself: n8n
 * takes every export of listSearch.ts and loadOptions.ts as one.
 */
export function triggerListLabel(list: ListRecord): string {
	const monitoring = Number(list.isMonitored) === 1 ? 'monitored' : 'not monitored: turn monitoring on before activating';
	return `${list.ListName} (${list.ListType ?? 'list'}, ${list.TotalCount ?? 0}) · ${monitoring}`;
}
