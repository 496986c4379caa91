/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * A key given as `{{ $json.field }}` (Property ID, Person Key) is read from the item where that is
 * what n8n's evaluation gives (`keyParameterValue` in shared/parameters.ts); elsewhere n8n
 * evaluates it. Compared here with n8n's own evaluation of the same parameter, in the same run,
 * under n8n's default expression engine (`vm`) and under `legacy`, over generated field names and
 * every name on n8n-workflow's deny lists.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import fc from 'fast-check';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { keyParameterValue } from '../../nodes/PropRadar/shared/parameters';
import {
	activeExpressionEngine,
	registerNodeType,
	runNode,
	selectExpressionEngine,
	TOKENS,
} from '../support/harness';
import { propertyPurchase, run, useEngineSandbox } from '../support/helpers';

jest.setTimeout(300_000);

/** The outcome of one read: its value, or the message of its error. */
type Outcome = { value: unknown } | { error: string };

function outcome(read: () => unknown): Outcome {
	try {
		return { value: read() };
	} catch (error) {
		return { error: (error as Error).message };
	}
}

/**
 * Reads each of its parameters `key0`, `key1`, ... for each item twice: as the PropRadar node reads
 * a key, and as n8n evaluates it. Many expressions are read in one run: each run of a workflow
 * takes an isolate of n8n's `vm` engine, as in n8n.
 */
class KeyReader implements INodeType {
	description: INodeTypeDescription;

	constructor(count: number) {
		this.description = {
			displayName: 'Key Reader',
			name: 'keyReader',
			group: ['transform'],
			version: 1,
			description: 'Reads key parameters as the PropRadar node and as n8n do',
			defaults: { name: 'Key Reader' },
			inputs: ['main'],
			outputs: ['main'],
			properties: Array.from({ length: count }, (_, index) => ({
				displayName: `Key ${index}`,
				name: `key${index}`,
				type: 'string' as const,
				default: '',
			})),
		};
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const count = Object.keys(this.getNode().parameters).filter((name) =>
			/^key\d+$/.test(name),
		).length;
		return [
			this.getInputData().map((_, itemIndex) => ({
				json: {
					reads: Array.from({ length: count }, (__, index) => ({
						node: outcome(() => keyParameterValue(this, itemIndex, `key${index}`)),
						n8n: outcome(() =>
							this.getNodeParameter(`key${index}`, itemIndex, '', { skipValidation: true }),
						),
					})),
				} as IDataObject,
			})),
		];
	}
}

/** The string literals of `const <name> = new Set([...])` in a file of n8n-workflow's build. */
function deniedNames(file: string, name: string): string[] {
	const source = readFileSync(join(dirname(require.resolve('n8n-workflow')), file), 'utf8');
	const found = new RegExp(`const ${name} = new Set\\(\\[([\\s\\S]*?)\\]\\)`).exec(source);
	if (!found) throw new Error(`n8n-workflow's ${file} no longer declares ${name}`);
	return [...found[1].matchAll(/'([^']+)'/g)].map((match) => match[1]);
}

/** The globals n8n's expressions see as `{}` (`Expression.initializeGlobalContext`'s deny list). */
function deniedGlobals(): string[] {
	const source = readFileSync(
		join(dirname(require.resolve('n8n-workflow')), 'expression.js'),
		'utf8',
	);
	return [...source.matchAll(/data\.(\w+) = \{\};/g)].map((match) => match[1]);
}

const DENIED = [
	...deniedNames('utils.js', 'unsafeObjectProperties'),
	...deniedNames('expression.js', 'blockedMethods'),
	...deniedNames('expression.js', 'blockedErrorProperties'),
	...deniedGlobals(),
];

/** Names a field may have that an expression's reading could treat otherwise than as the item's field. */
const SPECIAL = [
	...Object.getOwnPropertyNames(Object.prototype),
	...Object.getOwnPropertyNames(Function.prototype),
	...[
		'length',
		'map',
		'push',
		'then',
		'toJSON',
		'isProxy',
		'json',
		'binary',
		'data',
		'context',
		'parameter',
		'runIndex',
		'item',
		'extend',
		'extendOptional',
	],
	...[
		'__sanitize',
		'___n8n_data',
		'process',
		'require',
		'module',
		'Buffer',
		'global',
		'globalThis',
		'this',
		'Object',
		'Error',
	],
	...[
		'constructorId',
		'constructor_',
		'constructors',
		'Constructor',
		'myconstructor',
		'prototypes',
		'__proto',
		'proto__',
	],
	...[
		'class',
		'new',
		'in',
		'if',
		'null',
		'true',
		'false',
		'typeof',
		'delete',
		'void',
		'function',
		'return',
		'var',
		'let',
		'const',
		'import',
		'export',
		'default',
		'await',
		'yield',
		'super',
		'enum',
		'static',
		'undefined',
		'NaN',
	],
];

const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/);
const GENERATED = fc.sample(identifier, { numRuns: 80, seed: 40 });

/** Every name, once, each a field name `={{ $json.name }}` can have. */
const NAMES = [...new Set([...DENIED, ...SPECIAL, ...GENERATED])].filter((name) =>
	/^[A-Za-z_][A-Za-z0-9_]*$/.test(name),
);

const READER = 'test.keyReader';
registerNodeType(READER, new KeyReader(NAMES.length));

/** A field whose name may be `__proto__`, as JSON.parse makes one: the object's own. */
const field = (name: string, value: unknown): IDataObject =>
	Object.defineProperty({}, name, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	}) as IDataObject;
const withEvery = (value: (name: string) => unknown): IDataObject =>
	NAMES.reduce<IDataObject>(
		(item, name) =>
			Object.defineProperty(item, name, {
				value: value(name),
				enumerable: true,
				writable: true,
				configurable: true,
			}),
		{},
	);

/** Text, text to trim, empty text, and what is not text: what an item may hold where a key is read. */
const VALUES: unknown[] = ['P000123', ' K000001A ', '', 7, null, { inner: 'P000124' }, ['P000125']];

/**
 * One read of every name in one of three places, `$json.name`, `$json.owner.name` and
 * `$json.name.key`, over items holding each value there (every name at once), an item where the
 * path runs through text, and an empty item.
 */
const PLACES = [
	{ path: (name: string) => name, items: [...VALUES.map((value) => withEvery(() => value)), {}] },
	{
		path: (name: string) => `owner.${name}`,
		items: [...VALUES.map((value) => ({ owner: withEvery(() => value) })), { owner: 'text' }, {}],
	},
	{
		path: (name: string) => `${name}.key`,
		items: [
			...VALUES.map((value) => withEvery(() => ({ key: value }))),
			withEvery(() => 'text'),
			{},
		],
	},
];

interface Difference {
	engine: string;
	expression: string;
	item: number;
	node: Outcome;
	n8n: Outcome;
}

/** Every read of `={{ $json.<place> }}` for every name on which the node differs from n8n. */
async function differences(
	engine: string,
	place: (typeof PLACES)[number],
): Promise<{ reads: number; found: Difference[] }> {
	const expressions = NAMES.map((name) => `={{ $json.${place.path(name)} }}`);
	const parameters = Object.fromEntries(
		expressions.map((expression, index) => [`key${index}`, expression]),
	);
	const result = await runNode(parameters, {
		items: place.items,
		credentials: { baseUrl: 'http://127.0.0.1:9', accessToken: TOKENS.main },
		nodeType: READER,
	});
	if (result.error) throw new Error(`${result.error.message}`);
	const found: Difference[] = [];
	let reads = 0;
	result.json.forEach((json, item) => {
		(json.reads as Array<{ node: Outcome; n8n: Outcome }>).forEach((read, index) => {
			reads++;
			if (JSON.stringify(read.node) !== JSON.stringify(read.n8n))
				found.push({ engine, expression: expressions[index], item, ...read });
		});
	});
	return { reads, found };
}

const ENGINES = ['vm', 'legacy'] as const;

afterAll(() => selectExpressionEngine('vm'));

/** Runs one Key Reader on `items` with `expression` as its first key. */
async function readOnce(
	expression: string,
	items: IDataObject[],
): Promise<{ node: Outcome; n8n: Outcome }> {
	const parameters = Object.fromEntries(
		NAMES.map((_, index) => [`key${index}`, index === 0 ? expression : '']),
	);
	const result = await runNode(parameters, {
		items,
		credentials: { baseUrl: 'http://127.0.0.1:9', accessToken: TOKENS.main },
		nodeType: READER,
	});
	return (result.json[0].reads as Array<{ node: Outcome; n8n: Outcome }>)[0];
}

test("the tier runs n8n's default expression engine, vm; a field named as an Object.prototype method tells the two apart", async () => {
	expect(activeExpressionEngine()).toBe('vm');
	const items = [{ toString: 'P000123' }];
	expect((await readOnce('={{ ($json.toString) }}', items)).n8n).toEqual({
		error: expect.any(String),
	});
	selectExpressionEngine('legacy');
	try {
		expect((await readOnce('={{ ($json.toString) }}', items)).n8n).toEqual({ value: 'P000123' });
	} finally {
		selectExpressionEngine('vm');
	}
});

test.each(ENGINES)(
	"under the %s engine, the node reads {{ $json.field }}, {{ $json.a.b }} exactly as n8n evaluates them, over generated names and n8n's deny lists: 0 differences",
	async (engine) => {
		selectExpressionEngine(engine);
		expect(activeExpressionEngine()).toBe(engine);
		expect(NAMES.length).toBeGreaterThan(150);
		for (const denied of DENIED) expect(NAMES).toContain(denied);
		const found: Difference[] = [];
		let reads = 0;
		for (const place of PLACES) {
			const compared = await differences(engine, place);
			reads += compared.reads;
			found.push(...compared.found);
		}
		expect(reads).toBe(NAMES.length * PLACES.reduce((sum, place) => sum + place.items.length, 0));
		expect(found).toEqual([]);
	},
);

test.each(ENGINES)(
	'under the %s engine, the same in the forms of the template the node reads from the item, and in forms it leaves to n8n',
	async (engine) => {
		selectExpressionEngine(engine);
		const names = ['id', 'toString', 'caller', 'constructorId', 'globalThis', 'PropID'];
		const forms = (name: string) => [
			`={{$json.${name}}}`,
			`={{  $json.${name}  }}`,
			`={{\n$json.${name}\n}}`,
			`={{\t$json.${name}\r\n}}`,
			`={{ $json.${name} }} `,
			`= {{ $json.${name} }}`,
			`={{ $json .${name} }}`,
			`={{ $json. ${name} }}`,
			`={{ $json.${name}\u00a0}}`,
		];
		const expressions = names.flatMap(forms);
		const parameters = Object.fromEntries(
			NAMES.map((_, index) => [`key${index}`, expressions[index] ?? '']),
		);
		const items = [
			names.reduce<IDataObject>((item, name) => ({ ...item, ...field(name, 'P000123') }), {}),
			{},
		];
		const result = await runNode(parameters, {
			items,
			credentials: { baseUrl: 'http://127.0.0.1:9', accessToken: TOKENS.main },
			nodeType: READER,
		});
		const found = result.json.flatMap((json, item) =>
			(json.reads as Array<{ node: Outcome; n8n: Outcome }>)
				.slice(0, expressions.length)
				.map((read, index) => ({ expression: expressions[index], item, ...read }))
				.filter((read) => JSON.stringify(read.node) !== JSON.stringify(read.n8n)),
		);
		expect(found).toEqual([]);
	},
);

describe('through the PropRadar node', () => {
	const sb = useEngineSandbox();
	beforeEach(() => {
		sb.requests.length = 0;
	});

	test.each(ENGINES)(
		'under %s, {{ $json.constructorId }} is refused as n8n refuses it, and nothing is bought',
		async (engine) => {
			selectExpressionEngine(engine);
			try {
				const result = await run(sb, propertyPurchase('={{ $json.constructorId }}'), [
					{ constructorId: 'P000123' },
				]);
				expect(result.error?.message).toBe('Expression contains invalid constructor function call');
				expect(sb.requests).toEqual([]);
			} finally {
				selectExpressionEngine('vm');
			}
		},
	);

	test.each(['caller', 'arguments', 'binding', '_load', 'getPrototypeOf'])(
		'{{ $json.%s }} is refused as n8n refuses it ("due to security concerns"), before any request',
		async (name) => {
			const result = await run(sb, propertyPurchase(`={{ $json.${name} }}`), [
				{ [name]: 'P000123' },
			]);
			expect(result.error?.message).toBe(`Cannot access "${name}" due to security concerns`);
			expect(sb.requests).toEqual([]);
		},
	);

	test('under vm, {{ $json.toString }} fails as n8n fails it; under legacy n8n reads the field, and so does the node', async () => {
		const vm = await run(sb, propertyPurchase('={{ $json.toString }}'), [{ toString: 'P000123' }]);
		expect(vm.error).toBeDefined();
		expect(sb.requests).toEqual([]);
		selectExpressionEngine('legacy');
		try {
			const legacy = await run(sb, propertyPurchase('={{ $json.toString }}'), [
				{ toString: 'P000123' },
			]);
			expect(legacy.error).toBeUndefined();
			expect(sb.requests.map((request) => request.path)).toEqual([
				'/v1/properties/P000123',
				'/v1/properties/P000123',
			]);
		} finally {
			selectExpressionEngine('vm');
		}
	});
});
