import fc from 'fast-check';

import {
	buildCriteria,
	CriteriaError,
	isRelativeDate,
	validateCriteria,
} from '../../nodes/PropRadar/shared/criteria';

describe('criteria validation', () => {
	test('every value kind of the API passes', () => {
		const criteria = [
			{ name: 'ZipFive', value: [97202, 97212] },
			{ name: 'APN', value: ['123'] },
			{ name: 'Pool', value: [1] },
			{
				name: 'AvailableEquity',
				value: [
					[null, 100000],
					[200000, 300000],
				],
			},
			{ name: 'SqFt', value: [[null, 2000]] },
			{ name: 'LastTransferRecDate', value: ['from: 1/1/2023 to: 1/31/2023'] },
			{ name: 'PropertyType', value: [{ name: 'PType', value: ['SFR', 'CND'] }] },
			{ name: 'InList', value: [42] },
		];
		expect(validateCriteria(criteria)).toEqual(criteria);
		expect(validateCriteria(JSON.stringify(criteria))).toEqual(criteria);
	});

	test.each([
		['{"name":', 'Criteria: not valid JSON'],
		[{ name: 'State' }, 'Criteria: must be an array'],
		[[{ value: ['OR'] }], 'Criteria[0].name'],
		[[{ name: 'State', value: [] }], 'Criteria[0].value (State): must be a non-empty array'],
		[[{ name: 'Beds', value: [[3, 1]] }], 'Criteria[0].value[0] (Beds): a range is [min, max]'],
		[[{ name: 'Beds', value: [[null, null]] }], 'a range is [min, max]'],
		[[{ name: 'Beds', value: [[1, 2, 3]] }], 'a range is [min, max]'],
		[[{ name: 'Pool', value: [true] }], 'Criteria[0].value[0] (Pool): must be a string, a number'],
		[[{ name: 'State', value: ['OR'], extra: 1 }], 'unexpected key "extra"'],
		[
			[{ name: 'PropertyType', value: [{ name: 'PType', value: 'SFR' }] }],
			'Criteria[0].value[0] (PropertyType)[0].value (PType): must be a non-empty array',
		],
	])('refuses %j naming the place', (raw, message) => {
		expect(() => validateCriteria(raw)).toThrow(message);
	});

	test('any JSON that is not an array of criteria is refused with a message, never accepted or crashed', () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				let result: unknown;
				try {
					result = validateCriteria(value);
				} catch (error) {
					expect((error as Error).message).toMatch(/^Criteria/);
					return;
				}
				expect(Array.isArray(value)).toBe(true);
				expect(result).toEqual(value);
			}),
		);
	});
});

describe('criteria builder', () => {
	test('builds each kind', () => {
		expect(
			buildCriteria([
				{ name: 'State', values: 'or, wa' },
				{ name: 'ZipFive', values: '97202,97212' },
				{ name: 'Pool', has: false },
				{ name: 'AVM', min: '100000', max: '' },
				{ name: 'LastTransferRecDate', date: 'Last 90 Days' },
				{ name: 'PropertyType', propertyTypes: ['SFR'] },
				{ name: 'InList', values: '7' },
			]),
		).toEqual([
			{ name: 'State', value: ['OR', 'WA'] },
			{ name: 'ZipFive', value: [97202, 97212] },
			{ name: 'Pool', value: [0] },
			{ name: 'AVM', value: [[100000, null]] },
			{ name: 'LastTransferRecDate', value: ['Last 90 Days'] },
			{ name: 'PropertyType', value: [{ name: 'PType', value: ['SFR'] }] },
			{ name: 'InList', value: [7] },
		]);
	});

	test.each([
		[{ name: 'ZipFive', values: '9720' }, 'ZIP codes are five digits'],
		[{ name: 'State', values: 'Oregon' }, 'two-letter codes'],
		[{ name: 'Beds', min: '', max: '' }, 'give a minimum, a maximum or both'],
		[{ name: 'Beds', min: 'three' }, 'Beds) min: must be a number'],
		[{ name: 'LastTransferRecDate', date: 'last week' }, 'use a preset'],
		[{ name: 'PropertyType', propertyTypes: [] }, 'choose at least one property type'],
		[{ name: 'Nope' }, '"Nope" is not a builder criterion'],
	])('refuses %j', (row, message) => {
		expect(() => buildCriteria([row])).toThrow(message);
	});

	test('relative dates', () => {
		for (const good of [
			'Today',
			'Last 7 Days',
			'Next 365 Days',
			'1/1/2028',
			'from: 1/1/2023 to: 12/31/2023',
		])
			expect(isRelativeDate(good)).toBe(true);
		for (const bad of ['Last 8 Days', '2023-01-01', '13/1/2023', 'from 1/1/2023'])
			expect(isRelativeDate(bad)).toBe(false);
	});
});

describe('criteria nesting', () => {
	test('only the compound PropertyType nests, and it holds PType and AdvancedPropertyType', () => {
		const compound = [
			{
				name: 'PropertyType',
				value: [
					{ name: 'PType', value: ['SFR'] },
					{ name: 'AdvancedPropertyType', value: ['Duplex'] },
				],
			},
		];
		expect(validateCriteria(compound)).toEqual(compound);
		expect(() =>
			validateCriteria([{ name: 'State', value: [{ name: 'PType', value: ['SFR'] }] }]),
		).toThrow('Criteria[0].value[0] (State): only PropertyType takes nested criteria');
		expect(() =>
			validateCriteria([{ name: 'PropertyType', value: [{ name: 'State', value: ['OR'] }] }]),
		).toThrow(
			'Criteria[0].value[0] (PropertyType)[0]: PropertyType holds PType and AdvancedPropertyType criteria, not "State"',
		);
		expect(() => validateCriteria([{ name: 'PropertyType', value: ['SFR'] }])).toThrow(
			'Criteria[0].value[0] (PropertyType): PropertyType holds nested criteria',
		);
		expect(() =>
			validateCriteria([
				{
					name: 'PropertyType',
					value: [{ name: 'PType', value: [{ name: 'PType', value: ['SFR'] }] }],
				},
			]),
		).toThrow('(PType): only PropertyType takes nested criteria');
	});

	test('inherited key names are not criterion names of the builder', () => {
		for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
			expect(() => buildCriteria([{ name, values: 'x' }])).toThrow(
				`"${name}" is not a builder criterion`,
			);
		}
	});
});

describe('criteria builder values from expressions', () => {
	test('numbers and arrays work in every field that takes values', () => {
		expect(
			buildCriteria([
				{ name: 'ZipFive', values: 97411 },
				{ name: 'ZipFive', values: [97202, '97212'] },
				{ name: 'InList', values: 7 },
				{ name: 'InList', values: ['7', 8] },
				{ name: 'InList', values: '9007199254740993' },
				{ name: 'PropID', values: ['P000001', 'P000002'] },
				{ name: 'State', values: ['or', 'WA'] },
				{ name: 'City', values: 'Portland' },
				{ name: 'APN', values: 123 },
				{ name: 'Beds', min: 2, max: 4 },
				{ name: 'PropertyType', propertyTypes: 'SFR, CND' },
				{ name: 'Pool', has: 'false' },
			] as never),
		).toEqual([
			{ name: 'ZipFive', value: [97411] },
			{ name: 'ZipFive', value: [97202, 97212] },
			{ name: 'InList', value: [7] },
			{ name: 'InList', value: [7, 8] },
			{ name: 'InList', value: ['9007199254740993'] },
			{ name: 'PropID', value: ['P000001', 'P000002'] },
			{ name: 'State', value: ['OR', 'WA'] },
			{ name: 'City', value: ['Portland'] },
			{ name: 'APN', value: ['123'] },
			{ name: 'Beds', value: [[2, 4]] },
			{ name: 'PropertyType', value: [{ name: 'PType', value: ['SFR', 'CND'] }] },
			{ name: 'Pool', value: [0] },
		]);
	});

	test('a ZIP code given as a number that lost its leading zero is that ZIP code', () => {
		expect(buildCriteria([{ name: 'ZipFive', values: 2134 } as never])).toEqual([
			{ name: 'ZipFive', value: [2134] },
		]);
	});

	test.each([
		[
			{ name: 'ZipFive', values: { zip: 97202 } },
			'Criteria row 1 (ZIP Code): values must be text, a number or a list of them',
		],
		[{ name: 'InList', values: 0 }, 'Criteria row 1 (In List): "0" is not a list ID'],
		[
			{ name: 'InList', values: '99999999999999999999' },
			'is not a list ID; a list ID is a whole number from 1 to 9223372036854775807',
		],
		[
			{ name: 'InList', values: [7, 2 ** 53 + 2] },
			'Criteria row 1 (In List): "9007199254740994" is beyond 9007199254740991, where a number has already lost digits',
		],
		[
			{ name: 'PropID', values: 'P1/../2' },
			'Criteria row 1 (Property ID): "P1/../2" contains one of / \\ ? # %',
		],
		[
			{ name: 'Beds', min: [1], max: 2 },
			'Criteria row 1 (Beds) min: must be a number or empty for an open end',
		],
		[
			{ name: 'PropertyType', propertyTypes: ['XXX'] },
			'Criteria row 1 (Property Type): "XXX" is not a property type code',
		],
		[
			{ name: 'Pool', has: 'maybe' },
			'Criteria row 1 (Pool): Must Have (Off: Must Not Have) is on (true: must have it) or off (false: must not have it)',
		],
	])('refuses %j naming the row and the field', (row, message) => {
		expect(() => buildCriteria([row as never])).toThrow(message);
	});

	test('AdvancedPropertyType goes into the compound PropertyType, with PType or alone', () => {
		expect(
			buildCriteria([
				{
					name: 'PropertyType',
					propertyTypes: ['SFR'],
					advancedPropertyTypes: 'Duplex, Single Family Residence',
				},
			]),
		).toEqual([
			{
				name: 'PropertyType',
				value: [
					{ name: 'PType', value: ['SFR'] },
					{ name: 'AdvancedPropertyType', value: ['Duplex', 'Single Family Residence'] },
				],
			},
		]);
		expect(buildCriteria([{ name: 'PropertyType', advancedPropertyTypes: ['Duplex'] }])).toEqual([
			{ name: 'PropertyType', value: [{ name: 'AdvancedPropertyType', value: ['Duplex'] }] },
		]);
		expect(() =>
			buildCriteria([{ name: 'PropertyType', propertyTypes: [], advancedPropertyTypes: '' }]),
		).toThrow('choose at least one property type or give advanced property types');
	});

	test('whatever an expression yields, a builder row is built or refused with a message, never crashes', () => {
		const anyValue = fc.oneof(
			fc.jsonValue(),
			fc.constantFrom(undefined, 'constructor', '__proto__'),
		);
		const row = fc.record(
			{
				name: fc.oneof(
					fc.constantFrom(
						'State',
						'ZipFive',
						'InList',
						'PropID',
						'APN',
						'Beds',
						'Pool',
						'PropertyType',
						'LastTransferRecDate',
						'constructor',
						'toString',
					),
					fc.string(),
				),
				values: anyValue,
				has: anyValue,
				min: anyValue,
				max: anyValue,
				date: anyValue,
				propertyTypes: anyValue,
				advancedPropertyTypes: anyValue,
			},
			{ requiredKeys: ['name'] },
		);
		fc.assert(
			fc.property(fc.array(row, { maxLength: 3 }), (rows) => {
				let built: unknown;
				try {
					built = buildCriteria(rows as never);
				} catch (error) {
					expect(error).toBeInstanceOf(CriteriaError);
					expect((error as Error).message).toMatch(/^Criteria row \d+/);
					return;
				}
				expect(validateCriteria(built)).toEqual(built);
			}),
			{ seed: 13, numRuns: 2000 },
		);
	});
});

describe('identifiers in JSON criteria', () => {
	test('PropID values are checked as PropIDs', () => {
		expect(validateCriteria('[{"name":"PropID","value":["P000001","abc-1"]}]')).toEqual([
			{ name: 'PropID', value: ['P000001', 'abc-1'] },
		]);
		expect(() => validateCriteria('[{"name":"PropID","value":["P1/../x"]}]')).toThrow(
			'Criteria[0].value[0] (PropID): "P1/../x" contains one of / \\ ? # %',
		);
		expect(() => validateCriteria('[{"name":"PropID","value":[123]}]')).toThrow(
			'Criteria[0].value[0] (PropID): "123" is not text',
		);
	});

	test('InList values are list IDs: a number JSON has already rounded is refused, digits in a string are kept', () => {
		expect(validateCriteria('[{"name":"InList","value":[42, "9007199254740993"]}]')).toEqual([
			{ name: 'InList', value: [42, '9007199254740993'] },
		]);
		expect(() => validateCriteria('[{"name":"InList","value":[9007199254740993]}]')).toThrow(
			'Criteria[0].value[0] (InList): "9007199254740992" is beyond 9007199254740991, where a number has already lost digits; give a list ID as text',
		);
		expect(() => validateCriteria('[{"name":"InList","value":[0]}]')).toThrow(
			'Criteria[0].value[0] (InList): "0" is not a list ID',
		);
	});
});
