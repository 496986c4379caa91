import fc from 'fast-check';

import { buildCriteria, isRelativeDate, validateCriteria } from '../../nodes/PropRadar/shared/criteria';

describe('criteria validation', () => {
	test('every value kind of the API passes', () => {
		const criteria = [
			{ name: 'ZipFive', value: [97202, 97212] },
			{ name: 'APN', value: ['123'] },
			{ name: 'Pool', value: [1] },
			{ name: 'AvailableEquity', value: [[null, 100000], [200000, 300000]] },
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
		[[{ name: 'PropertyType', value: [{ name: 'PType', value: 'SFR' }] }], 'Criteria[0].value[0] (PropertyType)[0].value (PType): must be a non-empty array'],
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
		for (const good of ['Today', 'Last 7 Days', 'Next 365 Days', '1/1/2028', 'from: 1/1/2023 to: 12/31/2023']) expect(isRelativeDate(good)).toBe(true);
		for (const bad of ['Last 8 Days', '2023-01-01', '13/1/2023', 'from 1/1/2023']) expect(isRelativeDate(bad)).toBe(false);
	});
});
