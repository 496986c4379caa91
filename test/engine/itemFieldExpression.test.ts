/**
 * A key given as `{{ $json.field }}` (Property ID, Person Key) is n8n's to evaluate: what n8n
 * refuses, the node refuses, before anything is bought, under n8n's `vm` engine and `legacy`.
 */
import { selectExpressionEngine } from '../support/harness';
import { propertyPurchase, run, useEngineSandbox } from '../support/helpers';

jest.setTimeout(300_000);

const ENGINES = ['vm', 'legacy'] as const;

afterAll(() => selectExpressionEngine('vm'));

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
