import fc from 'fast-check';

import { keyProblem, MAX_NUMBERED_ID, parseNumberedId } from '../../nodes/PropRadar/shared/ids';

describe('numbered IDs (ListID, ListImportItemID, WebhookID)', () => {
	test('any whole number from 1 to 2^63 - 1 given as digits comes back with every digit', () => {
		fc.assert(
			fc.property(
				fc.bigInt({ min: 1n, max: BigInt(MAX_NUMBERED_ID) }),
				fc.nat({ max: 3 }),
				(id, zeros) => {
					const parsed = parseNumberedId(`${'0'.repeat(zeros)}${id}`);
					expect(parsed).toHaveProperty('id');
					expect(String((parsed as { id: number | string }).id)).toBe(String(id));
				},
			),
			{ seed: 13, numRuns: 1000 },
		);
	});

	test('beyond 2^53 the digits are kept as text, never rounded', () => {
		expect(parseNumberedId('9007199254740993')).toEqual({ id: '9007199254740993' });
		expect(parseNumberedId('9007199254740991')).toEqual({ id: 9007199254740991 });
		expect(parseNumberedId(MAX_NUMBERED_ID)).toEqual({ id: MAX_NUMBERED_ID });
	});

	test.each([
		['0', 'is not an ID'],
		['-1', 'is not an ID'],
		['1.5', 'is not an ID'],
		['1e3', 'is not an ID'],
		['9223372036854775808', 'is not an ID'],
		['9'.repeat(77), 'is not an ID'],
		['', 'is not an ID'],
		[Number.NaN, 'is not an ID'],
		[Infinity, 'is not an ID'],
		[0, 'is not an ID'],
		[2 ** 53 + 2, 'has already lost digits'],
		[[1], 'is not an ID'],
		[{}, 'is not an ID'],
		[true, 'is not an ID'],
	])('%j is refused', (value, problem) => {
		expect(parseNumberedId(value)).toEqual({ problem: expect.stringContaining(problem) });
	});
});

describe('keys (PropID, PersonKey)', () => {
	test("the sandbox's shapes and other plausible service variants pass", () => {
		for (const key of [
			'P000123',
			'K000123A',
			'123456',
			'a1b2-c3d4_e5',
			'prop.123',
			'ÄÖÜ-1',
			'x'.repeat(100),
		])
			expect(keyProblem(key)).toBeUndefined();
	});

	test.each([
		['', 'is empty'],
		['P 1', 'contains whitespace'],
		['P\u00a01', 'contains whitespace'],
		['P\u00001', 'contains a control character'],
		['P\n1', 'contains a control character'],
		['P\u007f1', 'contains a control character'],
		['P\u00851', 'contains a control character'],
		['P\u009f1', 'contains a control character'],
		['P/1', 'contains one of'],
		['P?1', 'contains one of'],
		['P#1', 'contains one of'],
		['P%2F', 'contains one of'],
		['P\\1', 'contains one of'],
		['..', 'is only dots'],
		['x'.repeat(101), 'is longer than 100 characters'],
	])('%j cannot be a key', (key, problem) => {
		expect(keyProblem(key)).toContain(problem);
	});
});
