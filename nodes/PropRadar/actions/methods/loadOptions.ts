import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest, collectPages, paths, readLists } from '../../transport';
import { readCriteria, type Criterion } from '../../shared/criteria';
import {
	fieldNames,
	LIST_FIELDS,
	PAGE_LIMITS,
	PROPERTY_FIELDS,
	WEBHOOK_FIELDS,
} from '../../shared/vocabulary';

// Without None (0): the filter takes 1 to 9.
export async function getStatusLevelFilters(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const response = await apiRequest(this, { method: 'GET', path: paths.statusLabels() });
	return (response.results ?? []).map((status: IDataObject) => ({
		name: `${String(status.Value)}: ${String(status.Label)}`,
		value: Number(status.Value),
	}));
}

export async function getStatusLevels(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return [{ name: 'None', value: 0 }, ...(await getStatusLevelFilters.call(this))];
}

// A member still Invited has not accepted yet and cannot receive an automation's messages.
export async function getMembers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const response = await apiRequest(this, { method: 'GET', path: paths.members() });
	const joined = (response.results ?? []).filter(
		(member: IDataObject) => member.Status === undefined || member.Status === 'Active',
	);
	return joined.map((member: IDataObject) => ({
		name: `${String(member.UserName)} (${String(member.UserEmail)})`,
		value: String(member.MemberKey),
	}));
}

export async function getWebhooks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const { records } = await collectPages(
		this,
		{
			method: 'GET',
			path: paths.webhooks(),
			qs: { Fields: fieldNames(WEBHOOK_FIELDS, 'WebhookID', 'WebhookName', 'HookUrl') },
		},
		{ pageSize: PAGE_LIMITS.webhooks.defaultLimit, untilEmpty: true },
	);
	return records.map((hook: IDataObject) => ({
		name: `${String(hook.WebhookName)} (${String(hook.WebhookID)})`,
		value: String(hook.WebhookID),
		description: String(hook.HookUrl ?? ''),
	}));
}

export async function getLists(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const lists = await readLists(this, fieldNames(LIST_FIELDS, 'ListID', 'ListName'));
	return lists.map((list) => ({
		name: `${String(list.ListName)} (${String(list.ListID)})`,
		value: String(list.ListID),
	}));
}

// The free preview of a property search (Purchase=0 always: this line never buys) counts every match.
export async function getCriteriaMatchCount(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const line = (name: string) => [{ name, value: '' }];
	let criteria: Criterion[];
	try {
		const mode = this.getNodeParameter('criteriaMode', 'builder') as string;
		criteria = readCriteria({
			mode,
			rows: mode === 'builder' ? (this.getNodeParameter('criteria', {}) as IDataObject) : undefined,
			json: mode === 'json' ? this.getNodeParameter('criteriaJson', '[]') : undefined,
		});
	} catch (error) {
		return line(`Not counted yet: ${(error as Error).message}`);
	}
	if (criteria.length === 0) return line('Add a criterion to count the properties that match');
	let response: { totalResultCount?: unknown };
	try {
		response = await apiRequest(this, {
			method: 'POST',
			path: paths.properties(),
			qs: { Purchase: 0, Limit: 1, Fields: fieldNames(PROPERTY_FIELDS, 'PropID') },
			body: { Criteria: criteria as unknown as IDataObject[] },
		});
	} catch (error) {
		return line(`Not counted: ${(error as Error).message}`);
	}
	const count = response.totalResultCount;
	if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0)
		return line("Not counted: PropRadar's preview gave no count");
	return line(
		`${count.toLocaleString('en-US')} ${count === 1 ? 'property matches' : 'properties match'} now (free count, nothing bought)`,
	);
}
