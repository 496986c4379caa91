/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { loadOptionsContext, TOKENS } from '../support/harness';
import { addToList, api, createList, run, runOk, useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();

const { listSearch, loadOptions } = new PropRadar().methods;

/** The context the editor's picker request gets, for the account of `token`. */
const contextFor = (
	token: string = TOKENS.main,
	parameters: IDataObject = {},
	path = 'parameters',
): ILoadOptionsFunctions =>
	loadOptionsContext({ baseUrl: sb.url, accessToken: token }, parameters, path);

type OptionsMethod = (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>;

function options(
	method: keyof typeof loadOptions,
	token: string = TOKENS.main,
): Promise<INodePropertyOptions[]> {
	return (loadOptions[method] as OptionsMethod).call(
		contextFor(
			token,
			{ resource: 'automation', operation: 'configure' },
			`parameters.automation.${method}`,
		),
	);
}

function searchLists(filter?: string, token: string = TOKENS.main): Promise<INodeListSearchResult> {
	return listSearch.searchLists.call(
		contextFor(
			token,
			{ resource: 'list', operation: 'get', listId: { __rl: true, mode: 'list', value: '' } },
			'parameters.listId',
		),
		filter,
	);
}

/** The account's status labels, straight from the sandbox. */
async function statusLabels(): Promise<Array<{ Value: number; Label: string }>> {
	return (
		await api<{ results: Array<{ Value: number; Label: string }> }>(
			sb,
			'GET',
			'/v1/accounts/preferences/statuses',
		)
	).body.results;
}

/** What a picker's failure shows a person, everything on the error. */
async function failureOf(
	promise: Promise<unknown>,
): Promise<{ error: Error & { description?: string; httpCode?: string }; shown: string }> {
	const error = await promise.then(
		() => {
			throw new Error('expected the picker to fail');
		},
		(caught: unknown) => caught as Error & { description?: string; httpCode?: string },
	);
	const { message, description } = error;
	return {
		error,
		shown: [message, description, JSON.stringify(error), String(error.stack)].join('\n'),
	};
}

describe('List picker: searchLists ("From List")', () => {
	test('a filter returns the matching list, by name, with the ID as its value, and not the others', async () => {
		const probate = await createList(sb, { listName: 'Probate Leads Picker', listType: 'static' });
		const tax = await createList(sb, { listName: 'Tax Delinquent Picker', listType: 'static' });
		await addToList(sb, probate, 'P000101,P000102');

		const found = await searchLists('probate leads');
		expect(found.results).toEqual([
			{ name: `Probate Leads Picker (static, 2, ID ${probate})`, value: String(probate) },
		]);
		expect(found.results.map((result) => result.value)).not.toContain(String(tax));

		const both = await searchLists('PICKER');
		expect(both.results.map((result) => result.value)).toEqual([String(probate), String(tax)]);
	});

	test('without a filter every list of the account comes, sorted by name; the chosen value works as the list of an operation', async () => {
		const zulu = await createList(sb, { listName: 'Zulu Unfiltered', listType: 'static' });
		const alpha = await createList(sb, { listName: 'Alpha Unfiltered', listType: 'static' });
		const all = await searchLists();
		const lists = (
			await api<{ results: Array<{ ListID: number; ListName: string }> }>(
				sb,
				'GET',
				'/v1/lists?Fields=ListID,ListName',
			)
		).body.results;
		expect(all.results.map((result) => result.value).sort()).toEqual(
			lists.map((list) => String(list.ListID)).sort(),
		);
		const nameOf = new Map(lists.map((list) => [String(list.ListID), list.ListName]));
		const names = all.results.map((result) => nameOf.get(String(result.value))!);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		const values = all.results.map((result) => result.value);
		expect(values.indexOf(String(alpha))).toBeLessThan(values.indexOf(String(zulu)));
		expect(all.results.find((result) => result.value === String(zulu))?.name).toBe(
			`Zulu Unfiltered (static, 0, ID ${zulu})`,
		);
		expect(all.paginationToken).toBeUndefined();

		const picked = all.results.find((result) => result.value === String(alpha))!;
		const [list] = await runOk(sb, {
			resource: 'list',
			operation: 'get',
			listId: { __rl: true, mode: 'list', value: picked.value },
		});
		expect(list).toMatchObject({ ListID: alpha, ListName: 'Alpha Unfiltered' });
	});

	test('a filter that matches nothing gives no results', async () => {
		await createList(sb, { listName: 'Something Else', listType: 'static' });
		expect((await searchLists('no list is called this')).results).toEqual([]);
	});

	test("the request carries the credential's token as its Authorization, and nothing is bought", async () => {
		const before = sb.requests.length;
		await searchLists('x');
		const sent = sb.requests.slice(before);
		expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/lists']);
		expect(sent[0].authorization).toBe(`Bearer ${TOKENS.main}`);
		expect(sent[0].query.get('Purchase')).toBeNull();
	});
});

describe('Load options', () => {
	test("getStatusLevels: None (0), then the account's own labels by value", async () => {
		const levels = await options('getStatusLevels');
		const labels = await statusLabels();
		expect(labels.length).toBeGreaterThan(0);
		expect(levels[0]).toEqual({ name: 'None', value: 0 });
		expect(levels.slice(1)).toEqual(
			labels.map((label) => ({ name: `${label.Value}: ${label.Label}`, value: label.Value })),
		);
		expect(levels).toContainEqual({ name: '2: Contacted', value: 2 });
	});

	test("getMembers: the MemberKeys of the account's members who have joined, named with user name and e-mail; an invited member is not offered", async () => {
		type Member = { MemberKey: string; UserName: string; UserEmail: string; Status: string };
		const members = await options('getMembers');
		const all = (await api<{ results: Member[] }>(sb, 'GET', '/v1/accounts/members')).body.results;
		const joined = all.filter((member) => member.Status === 'Active');
		const invited = all.filter((member) => member.Status === 'Invited');
		expect(joined.length).toBeGreaterThan(0);
		expect(invited.length).toBeGreaterThan(0);
		expect(members.map((member) => member.value)).toEqual(joined.map((member) => member.MemberKey));
		for (const member of invited)
			expect(members.map((option) => option.value)).not.toContain(member.MemberKey);
		expect(members[0]).toEqual({
			name: `${joined[0].UserName} (${joined[0].UserEmail})`,
			value: joined[0].MemberKey,
		});
		const second = await options('getMembers', TOKENS.second);
		const secondKeys = (
			await api<{ results: Member[] }>(sb, 'GET', '/v1/accounts/members', undefined, TOKENS.second)
		).body.results
			.filter((member) => member.Status === 'Active')
			.map((member) => member.MemberKey);
		expect(second.map((member) => member.value)).toEqual(secondKeys);
		expect(second.map((member) => member.value)).not.toContain(members[0].value);
	});

	test('getWebhooks: a webhook created on the account, by ID and name, with its URL; gone once deleted', async () => {
		const created = await api<{ results: Array<{ WebhookID: number }> }>(
			sb,
			'POST',
			'/v1/integrations/webhooks',
			{
				HookUrl: 'http://127.0.0.1:9/picker',
				WebhookName: 'Picker CRM',
				Secret: 'picker-hook-secret',
			},
		);
		expect(created.status).toBe(200);
		const id = created.body.results[0].WebhookID;
		const hooks = await options('getWebhooks');
		expect(hooks).toContainEqual({
			name: `Picker CRM (${id})`,
			value: String(id),
			description: 'http://127.0.0.1:9/picker',
		});
		expect(JSON.stringify(hooks)).not.toContain('picker-hook-secret');

		expect((await api(sb, 'DELETE', `/v1/integrations/webhooks/${id}`)).status).toBe(200);
		expect((await options('getWebhooks')).map((hook) => hook.value)).not.toContain(String(id));
	});

	test('getWebhooks: more webhooks than one page (500) are all offered', async () => {
		const ids: number[] = [];
		for (let n = 0; n < 520; n++) {
			const created = await api<{ results: Array<{ WebhookID: number }> }>(
				sb,
				'POST',
				'/v1/integrations/webhooks',
				{ HookUrl: `http://127.0.0.1:9/many-${n}`, WebhookName: `Many ${n}` },
			);
			ids.push(created.body.results[0].WebhookID);
		}
		try {
			const offered = new Set((await options('getWebhooks')).map((hook) => hook.value));
			expect(ids.filter((id) => !offered.has(String(id)))).toEqual([]);
			// The second page is short; the page after it was asked for while it was read (paging's
			// look-ahead), and webhook pages carry no total, so the read asks on from where the short page ended.
			expect(
				sb
					.sent('/v1/integrations/webhooks', 'GET')
					.slice(-4)
					.map((request) => request.query.get('Start')),
			).toEqual(['0', '500', '1000', '520']);
		} finally {
			for (const id of ids) await api(sb, 'DELETE', `/v1/integrations/webhooks/${id}`);
		}
	});

	test("getLists: the account's lists by name and ID, sorted by name", async () => {
		const first = await createList(sb, { listName: 'Options Bravo', listType: 'static' });
		const second = await createList(sb, { listName: 'Options Alpha', listType: 'static' });
		const lists = await options('getLists');
		expect(lists).toContainEqual({ name: `Options Bravo (${first})`, value: String(first) });
		expect(lists).toContainEqual({ name: `Options Alpha (${second})`, value: String(second) });
		const values = lists.map((list) => list.value);
		expect(values.indexOf(String(second))).toBeLessThan(values.indexOf(String(first)));
	});
});

describe('Picked values are what the operations take', () => {
	test('an automation configured with values from getMembers, getWebhooks, getLists and getStatusLevels keeps them', async () => {
		const listId = await createList(sb, { listName: 'Picked Source', listType: 'static' });
		const target = await createList(sb, { listName: 'Picked Target', listType: 'static' });
		const hook = await api<{ results: Array<{ WebhookID: number }> }>(
			sb,
			'POST',
			'/v1/integrations/webhooks',
			{ HookUrl: 'http://127.0.0.1:9/picked', WebhookName: 'Picked' },
		);
		const hookId = String(hook.body.results[0].WebhookID);

		const members = await options('getMembers');
		const webhook = (await options('getWebhooks')).find((option) => option.value === hookId)!;
		const list = (await options('getLists')).find((option) => option.value === String(target))!;
		const status = (await options('getStatusLevels')).find(
			(option) => option.name === '4: Appointment Set',
		)!;
		expect(webhook).toBeDefined();
		expect(list).toBeDefined();
		expect(status).toBeDefined();

		await runOk(sb, {
			resource: 'automation',
			operation: 'configure',
			listId: { __rl: true, mode: 'id', value: String(listId) },
			configureMode: 'update',
			automation: {
				DailyEmailMemberIDs: [members[0].value, members[1].value],
				ExportToWebhookIDs: [webhook.value],
				AddToLists: [list.value],
				SetStatusLevel: status.value,
			},
		});
		const [saved] = await runOk(sb, {
			resource: 'automation',
			operation: 'get',
			listId: { __rl: true, mode: 'id', value: String(listId) },
		});
		expect(saved).toMatchObject({
			DailyEmailMemberIDs: `${members[0].value},${members[1].value}`,
			ExportToWebhookIDs: hookId,
			AddToLists: String(target),
			SetStatusLevel: 4,
		});
	});
});

/** The load options method the editor calls for a field inside a collection of an operation. */
function methodOf(
	resource: string,
	operation: string,
	collection: string,
	field: string,
): keyof typeof loadOptions {
	const parent = new PropRadar().description.properties.find(
		(property) =>
			property.name === collection &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation),
	);
	const child = (
		parent?.options as
			Array<{ name: string; typeOptions?: { loadOptionsMethod?: string } }> | undefined
	)?.find((option) => option.name === field);
	const method = child?.typeOptions?.loadOptionsMethod;
	if (!method || !(method in loadOptions))
		throw new Error(`${resource} ${operation} ${collection}.${field} has no load options method`);
	return method as keyof typeof loadOptions;
}

describe('Status levels where they are used', () => {
	test("the List Item status filter offers the account's labels, each one a filter the API takes, and no None", async () => {
		const listId = await createList(sb, { listName: 'Status Filter', listType: 'static' });
		await addToList(sb, listId, 'P000201');
		const labels = await statusLabels();
		const offered = await options(methodOf('listItem', 'getMany', 'filters', 'StatusLevel'));
		expect(offered).toEqual(
			labels.map((label) => ({ name: `${label.Value}: ${label.Label}`, value: label.Value })),
		);
		for (const level of offered) {
			const result = await run(sb, {
				resource: 'listItem',
				operation: 'getMany',
				listId: { __rl: true, mode: 'id', value: String(listId) },
				returnAll: true,
				filters: { StatusLevel: [level.value] },
			});
			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([]);
		}
	});

	test("the automation's Set Status Level offers None (0) to leave the status alone, then the labels", async () => {
		const offered = await options(
			methodOf('automation', 'configure', 'automation', 'SetStatusLevel'),
		);
		expect(offered[0]).toEqual({ name: 'None', value: 0 });
		expect(offered.slice(1).map((level) => level.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
	});
});

describe('Pickers show one account only', () => {
	test("another account's lists never show up, in either direction", async () => {
		const mine = await createList(sb, { listName: 'Isolation Mine', listType: 'static' });
		const theirs = await createList(
			sb,
			{ listName: 'Isolation Theirs', listType: 'static' },
			TOKENS.second,
		);

		const searched = (await searchLists('isolation')).results;
		expect(searched.map((result) => result.value)).toEqual([String(mine)]);
		expect((await searchLists()).results.map((result) => result.value)).not.toContain(
			String(theirs),
		);
		expect((await options('getLists')).map((list) => list.value)).not.toContain(String(theirs));
		expect(JSON.stringify(await options('getLists'))).not.toContain('Isolation Theirs');

		expect((await searchLists('isolation', TOKENS.second)).results).toEqual([
			{ name: `Isolation Theirs (static, 0, ID ${theirs})`, value: String(theirs) },
		]);
		expect((await options('getLists', TOKENS.second)).map((list) => list.value)).not.toContain(
			String(mine),
		);
	});

	test("another account's webhooks never show up", async () => {
		const created = await api<{ results: Array<{ WebhookID: number }> }>(
			sb,
			'POST',
			'/v1/integrations/webhooks',
			{ HookUrl: 'http://127.0.0.1:9/theirs', WebhookName: 'Theirs' },
			TOKENS.second,
		);
		const id = String(created.body.results[0].WebhookID);
		expect((await options('getWebhooks', TOKENS.second)).map((hook) => hook.value)).toContain(id);
		expect((await options('getWebhooks')).map((hook) => hook.value)).not.toContain(id);
	});
});

describe('Pickers with a bad credential', () => {
	const secret = 'bogus-token-5f3a9c';

	test.each([
		['searchLists', () => searchLists('x', secret)],
		['getStatusLevels', () => options('getStatusLevels', secret)],
		['getStatusLevelFilters', () => options('getStatusLevelFilters', secret)],
		['getMembers', () => options('getMembers', secret)],
		['getWebhooks', () => options('getWebhooks', secret)],
		['getLists', () => options('getLists', secret)],
	])(
		'%s: an unknown token is a clear error that does not contain the token',
		async (_name, call) => {
			const before = sb.requests.length;
			const { error, shown } = await failureOf(call());
			expect(error.message).toBe('PropRadar does not accept the access token');
			expect(error.httpCode).toBe('401');
			expect(error.description).toContain('update the Access Token of the PropRadar credential');
			expect(shown).not.toContain(secret);
			const sent = sb.requests.slice(before);
			expect(sent).toHaveLength(1);
			expect(sent[0].authorization).toBe(`Bearer ${secret}`);
		},
	);

	test('an inactive account is refused with 403, and the token is not shown', async () => {
		const { error, shown } = await failureOf(searchLists(undefined, TOKENS.inactive));
		expect(error.httpCode).toBe('403');
		expect(error.message).toBe('PropRadar refused this request for your account');
		expect(shown).not.toContain(TOKENS.inactive);
	});
});
