import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { loadOptionsContext, TOKENS } from '../support/harness';
import { api, createList, listRef, runOk, useEngineSandbox } from '../support/helpers';

/**
 * The list pickers' "From List" as the editor fills them (issue 38): the editor calls the method
 * that the picker's mode names (`searchListMethod`) with the node's parameters, here through the
 * sandbox. List Item > Add takes static lists only, so its picker offers static lists only; Import
 * Record's operations take import lists only, so theirs offer import lists only; the other pickers
 * offer every list.
 */
const sb = useEngineSandbox();
const node = new PropRadar();
type SearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
) => Promise<INodeListSearchResult>;

/** What the "From List" mode of the `listId` picker shown for resource > operation lists, as the editor asks for it. */
async function picked(
	resource: string,
	operation: string,
	filter?: string,
): Promise<INodeListSearchResult['results']> {
	const picker = node.description.properties.find(
		(property: INodeProperties) =>
			property.name === 'listId' &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions.show.operation?.includes(operation),
	)!;
	const method = picker.modes!.find((mode) => mode.name === 'list')!.typeOptions!.searchListMethod!;
	const parameters: IDataObject = {
		resource,
		operation,
		listId: { __rl: true, mode: 'list', value: '' },
	};
	const search = (node.methods.listSearch as Record<string, SearchMethod>)[method];
	return (
		await search.call(
			loadOptionsContext(
				{ baseUrl: sb.url, accessToken: TOKENS.main },
				parameters,
				'parameters.listId',
			),
			filter,
		)
	).results;
}

let lists: Record<'static' | 'otherStatic' | 'dynamic' | 'import', number>;
beforeAll(async () => {
	lists = {
		static: await createList(sb, { listName: 'Kinds picker static', listType: 'static' }),
		otherStatic: await createList(sb, { listName: 'Kinds picker static 2', listType: 'static' }),
		dynamic: await createList(sb, {
			listName: 'Kinds picker dynamic',
			listType: 'dynamic',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR"]}]',
		}),
		import: await createList(sb, {
			listName: 'Kinds picker import',
			listType: 'import',
			importSource: 'api',
		}),
	};
});

test("List Item > Add's Static List offers the static lists only, the dynamic and import lists of the same name not", async () => {
	const offered = await picked('listItem', 'add', 'kinds picker');
	expect(offered.map((result) => result.value).sort()).toEqual(
		[String(lists.static), String(lists.otherStatic)].sort(),
	);
	expect(offered.every((result) => / \(static, \d+, ID \d+\)$/.test(String(result.name)))).toBe(
		true,
	);
	// The service is asked for static lists only.
	expect(sb.sent('/v1/lists', 'GET').at(-1)!.query.get('ListType')).toBe('static');
});

test('each list is named with its ID, so that two lists of one name are told apart', async () => {
	const offered = await picked('listItem', 'add', 'kinds picker static');
	expect(offered.map((result) => result.name).sort()).toEqual(
		[
			`Kinds picker static (static, 0, ID ${lists.static})`,
			`Kinds picker static 2 (static, 0, ID ${lists.otherStatic})`,
		].sort(),
	);
});

test('a service that ignores the type filter and answers every list: still the static lists only', async () => {
	const every = await api<{ results: IDataObject[] }>(
		sb,
		'GET',
		'/v1/lists?Fields=ListID,ListName,ListType,TotalCount&Sort=ListName&Dir=asc',
	);
	sb.faults.push({
		method: 'GET',
		pathPrefix: '/v1/lists',
		query: { ListType: 'static' },
		count: 1,
		status: 200,
		body: every.body,
	});
	expect(
		every.body.results.some(
			(list) => list.ListType !== 'static' && String(list.ListName).startsWith('Kinds picker'),
		),
	).toBe(true);
	const offered = await picked('listItem', 'add', 'kinds picker');
	expect(sb.faults.map((fault) => fault.count)).toEqual([0]);
	expect(offered.map((result) => result.value).sort()).toEqual(
		[String(lists.static), String(lists.otherStatic)].sort(),
	);
});

test('without a filter, every static list of the account and nothing else', async () => {
	const offered = await picked('listItem', 'add');
	const all = await picked('list', 'get');
	const staticOnes = all.filter((result) => / \(static, \d+, ID \d+\)$/.test(String(result.name)));
	expect(all.length).toBeGreaterThan(staticOnes.length);
	expect(offered).toEqual(staticOnes);
});

test('a static list picked there is one List Item > Add takes', async () => {
	const [choice] = await picked('listItem', 'add', 'kinds picker static 2');
	const [added] = await runOk(sb, {
		resource: 'listItem',
		operation: 'add',
		listId: { __rl: true, mode: 'list', value: choice.value },
		addBy: 'propIds',
		propIds: 'P000720',
	});
	expect(added).toMatchObject({ ListID: lists.otherStatic, PropIDs: ['P000720'] });
	const items = await runOk(sb, {
		resource: 'listItem',
		operation: 'getMany',
		listId: listRef(lists.otherStatic),
		returnAll: true,
	});
	expect(items.map((item) => item.PropID)).toEqual(['P000720']);
});

test("Import Record's Import List offers the import lists only, in each of its operations", async () => {
	for (const operation of ['import', 'getMany', 'updateMatch', 'deleteMatch']) {
		const offered = await picked('importRecord', operation, 'kinds picker');
		expect(offered.map((result) => result.value)).toEqual([String(lists.import)]);
		expect(String(offered[0].name)).toMatch(/ \(import, \d+, ID \d+\)$/);
		expect(sb.sent('/v1/lists', 'GET').at(-1)!.query.get('ListType')).toBe('import');
	}
});

test('the other list pickers still offer every kind of list', async () => {
	for (const [resource, operation] of [
		['list', 'get'],
		['listItem', 'getMany'],
		['listItem', 'remove'],
	]) {
		const offered = (await picked(resource, operation, 'kinds picker')).map(
			(result) => result.value,
		);
		expect(offered.sort()).toEqual(Object.values(lists).map(String).sort());
	}
});
