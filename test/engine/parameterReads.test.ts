/**
 * How often the node asks n8n for a parameter (shared/parameters/parameter.ts), through n8n-core's
 * engine: a parameter with no expression once per run, one with an expression once per item.
 * n8n's own read is watched, not replaced: every value still comes from n8n.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeExecutionContext } from 'n8n-core/dist/execution-engine/node-execution-context/node-execution-context';

import {
	createImportList,
	importInto,
	portlandRecords,
	run,
	useEngineSandbox,
} from '../support/helpers';

jest.setTimeout(120_000);

const sb = useEngineSandbox();

/** How many times n8n was asked for each parameter during `work`. */
async function readsDuring(work: () => Promise<unknown>): Promise<Record<string, number>> {
	const read = jest.spyOn(
		NodeExecutionContext.prototype as unknown as { _getNodeParameter: () => unknown },
		'_getNodeParameter',
	);
	try {
		await work();
		const reads: Record<string, number> = {};
		for (const [name] of read.mock.calls as unknown as Array<[string]>)
			reads[name] = (reads[name] ?? 0) + 1;
		return reads;
	} finally {
		read.mockRestore();
	}
}

const propIds = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ PropID: `P${String(i + 601).padStart(6, '0')}` }));

test('Property > Get over 40 items: the PropID expression is read for each item, Fields, Simplify and Max Cost once', async () => {
	let json: IDataObject[] = [];
	const reads = await readsDuring(async () => {
		const result = await run(
			sb,
			{
				resource: 'property',
				operation: 'get',
				propId: '={{ $json.PropID }}',
				fields: { fieldsets: ['Overview'] },
				simple: true,
				chargeMode: 'purchase',
				maxCost: 50,
			},
			propIds(40),
		);
		json = result.json;
	});
	expect(json.map((item) => item.PropID)).toEqual(propIds(40).map((item) => item.PropID));
	expect(reads).toMatchObject({ propId: 40, fields: 1, simple: 1, maxCost: 1 });
});

test('Import over 30 items: Import List, Options, Fields and Mapping fixed are read once; an Import List expression for each item', async () => {
	const listId = await createImportList(sb, 'parameter reads');
	const fixed = await readsDuring(() =>
		run(sb, importInto(listId, { chargeMode: 'preview' }), portlandRecords(30, 'Reads St')),
	);
	expect(fixed).toMatchObject({ listId: 1, importOptions: 1, fields: 1, mapping: 1 });
	const perItem = await readsDuring(() =>
		run(
			sb,
			importInto(listId, {
				chargeMode: 'preview',
				listId: { __rl: true, mode: 'id', value: '={{ $json.list }}' },
			}),
			portlandRecords(30, 'Reads St').map((record) => ({ ...record, list: String(listId) })),
		),
	);
	expect(perItem).toMatchObject({ listId: 30, importOptions: 1, fields: 1, mapping: 1 });
});
