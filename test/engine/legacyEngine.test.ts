/**
 * A few workflows under n8n's `legacy` expression engine, which users can choose
 * (N8N_EXPRESSION_ENGINE=legacy) instead of the default `vm`: expressions in the node's parameters
 * read the same.
 */
import type { IDataObject } from 'n8n-workflow';

import { activeExpressionEngine, useExpressionEngine } from '../support/harness';
import { createList, listRef, run, runOk, useEngineSandbox } from '../support/helpers';

useExpressionEngine('legacy');

const sb = useEngineSandbox();
beforeEach(() => {
	sb.requests.length = 0;
});

test('this file runs under legacy', () => {
	expect(activeExpressionEngine()).toBe('legacy');
});

test('a Property ID as {{ $json.id }} (read from the item) and as {{ ($json.id) }} (evaluated by n8n) give the same output and errors on messy items', async () => {
	const messy: IDataObject[] = [
		{ id: 'P000201' },
		{ id: ' P000202 ' },
		{ id: '' },
		{ id: 205 },
		{ id: null },
		{ id: ['P000207'] },
		{ other: 'P000208' },
		{ id: 'P000209', toString: 'P000210' },
	];
	const getProperty = {
		resource: 'property',
		operation: 'get',
		chargeMode: 'preview',
		itemConcurrency: 1,
	};
	const read = await run(sb, { ...getProperty, propId: '={{ $json.id }}' }, messy, undefined, true);
	const readPaths = sb.requests.map((request) => request.path);
	sb.requests.length = 0;
	const evaluated = await run(
		sb,
		{ ...getProperty, propId: '={{ ($json.id) }}' },
		messy,
		undefined,
		true,
	);
	const comparable = (items: unknown[]) =>
		JSON.parse(
			JSON.stringify(items).replace(/Troubleshooting code: [\w-]+/g, 'Troubleshooting code: …'),
		) as unknown;
	expect(comparable(read.json)).toEqual(comparable(evaluated.json));
	expect(readPaths).toEqual(sb.requests.map((request) => request.path));
	expect(read.json.filter((item) => !item.error)).toHaveLength(3);
});

test('PropIDs and criteria from expressions', async () => {
	const listId = await createList(sb, { listName: 'legacy engine', listType: 'static' });
	const [added] = await runOk(
		sb,
		{
			resource: 'listItem',
			operation: 'add',
			listId: listRef(listId),
			addBy: 'propIds',
			propIds: '={{ $json.ids }}',
		},
		[{ ids: ['P000301', 'P000302'] }],
	);
	expect(added).toMatchObject({ batch: { updateCount: 2 } });
	const found = await runOk(
		sb,
		{
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '={{ JSON.stringify([{ name: "InList", value: [$json.list] }]) }}',
			returnAll: true,
			chargeMode: 'preview',
		},
		[{ list: listId }],
	);
	expect(found[0]).toMatchObject({ resultCount: 2 });
});
