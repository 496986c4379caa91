import type { ListRecord } from '../transport';

// Apart from listSearch.ts and loadOptions.ts, since n8n takes every export of those as a method.
// Monitoring is shown because activation refuses an unmonitored list.
export function triggerListLabel(list: ListRecord): string {
	const monitoring =
		Number(list.isMonitored) === 1
			? 'monitored'
			: 'not monitored: turn monitoring on before activating';
	return `${list.ListName} (${list.ListType ?? 'list'}, ${list.TotalCount ?? 0}) · ${monitoring}`;
}
