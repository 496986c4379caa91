/**
 * The criteria builder as an investor uses it: a criterion's value fields come after its name,
 * Minimum before Maximum, with examples of the right kind; the common lead filters are one choice
 * each; and the line under the builder counts the matches with PropRadar's free preview, buying
 * nothing. Runs through n8n-core against the sandbox.
 */
import {
	NodeHelpers,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { loadOptionsContext, TOKENS } from '../support/harness';
import { allExamples } from '../support/workflows';
import { api, runOk, sandboxCharges, useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();

const node = new PropRadar();
const criteria = node.description.properties.find(
	(property) =>
		property.name === 'criteria' && property.displayOptions?.show?.resource?.includes('property'),
)!;
const rowFields = (criteria.options as Array<{ values: INodeProperties[] }>)[0].values;

/** The fields of a builder row n8n shows for a criterion, in the order it shows them. */
function shownFor(name: string): INodeProperties[] {
	return rowFields.filter((field) => NodeHelpers.displayParameter({ name }, field, null, null));
}

const searchPreview = (rows: IDataObject[]) => ({
	resource: 'property',
	operation: 'search',
	criteriaMode: 'builder',
	criteria: { criterion: rows },
	returnAll: false,
	limit: 1,
});

/** What the sandbox counts for these criteria: its free preview's totalResultCount. */
async function sandboxCount(criteriaJson: unknown[]): Promise<number> {
	const { body } = await api<{ totalResultCount: number }>(
		sb,
		'POST',
		'/v1/properties?Purchase=0&Limit=1',
		{ Criteria: criteriaJson },
	);
	return body.totalResultCount;
}

const chargeLog = async () => (await sandboxCharges(sb)).log;

describe('a row shows its criterion first, then its values', () => {
	test.each([
		['Beds', '2', '4'],
		['SqFt', '1200', '2500'],
		['YearBuilt', '1960', '2005'],
		['AVM', '100000', '500000'],
		['EquityPercent', '50', '100'],
	])('%s: Criterion, From (Minimum), To (Maximum), with examples of its kind', (name, min, max) => {
		expect(
			shownFor(name).map((field) => [field.displayName, field.name, field.placeholder]),
		).toEqual([
			['Criterion', 'name', undefined],
			['From (Minimum)', 'min', min],
			['To (Maximum)', 'max', max],
		]);
	});

	test.each([
		['ZipFive', '97202, 97212'],
		['State', 'OR, WA'],
		['InList', '12, 15'],
		['PropID', 'P000123, P000456'],
	])('%s: Criterion, then Values with an example of its kind', (name, example) => {
		expect(shownFor(name).map((field) => [field.displayName, field.placeholder])).toEqual([
			['Criterion', undefined],
			['Values', example],
		]);
	});

	test('a lead filter is complete in one choice: nothing but the criterion is shown', () => {
		const picker = rowFields.find((field) => field.name === 'name')!;
		const choices = picker.options as INodePropertyOptions[];
		for (const name of [
			'absenteeOwner',
			'highEquity',
			'preForeclosure',
			'vacant',
			'taxDelinquent',
			'isFreeAndClear',
			'isListedForSale',
		]) {
			const choice = choices.find((option) => option.value === name);
			expect(choice).toBeDefined();
			// The picker's description names every lead filter.
			expect(picker.description).toContain(choice!.name.replace(/ \(.*\)$/, ''));
		}
		for (const name of ['absenteeOwner', 'highEquity', 'preForeclosure', 'vacant', 'taxDelinquent'])
			expect(shownFor(name).map((field) => field.name)).toEqual(['name']);
		for (const name of ['isFreeAndClear', 'isListedForSale'])
			expect(shownFor(name).map((field) => field.name)).toEqual(['name', 'has']);
	});
});

describe('Must Have switched off means must not have', () => {
	test('the switch says what off means, and that leaving the criterion out matches either way', () => {
		const [has] = shownFor('Pool').filter((field) => field.name === 'has');
		expect(has.type).toBe('boolean');
		expect(has.default).toBe(true);
		expect(has.displayName).toBe('Must Have (Off: Must Not Have)');
		expect(has.description).toContain('must not have it (off)');
		expect(has.description).toContain('To match properties either way, remove this criterion');
	});

	test('the stored values are unchanged: off sends "must not have", on "must have"', async () => {
		const sent = async (has: boolean) => {
			const before = sb.requests.length;
			await runOk(sb, searchPreview([{ name: 'Pool', has }]));
			return sb.requests.slice(before).map((request) => JSON.parse(request.body) as unknown);
		};
		expect(await sent(false)).toEqual([
			expect.objectContaining({ Criteria: [{ name: 'Pool', value: [0] }] }),
		]);
		expect(await sent(true)).toEqual([
			expect.objectContaining({ Criteria: [{ name: 'Pool', value: [1] }] }),
		]);
	});
});

describe("saved workflows load as they were saved: the builder's parameters and values are unchanged", () => {
	type SavedNode = { name: string; type: string; typeVersion: number; parameters: IDataObject };
	const propRadarNodes = allExamples<{ nodes: SavedNode[] }>()
		.flatMap((workflow) => workflow.nodes)
		.filter((saved) => saved.type === 'n8n-nodes-propradar.propRadar');

	test.each(propRadarNodes.map((saved) => [saved.name, saved] as const))(
		'%s: n8n reads back every parameter it saved, with its value',
		(_name, saved) => {
			const loaded = NodeHelpers.getNodeParameters(
				node.description.properties,
				saved.parameters as never,
				true,
				false,
				saved as never,
				node.description,
			);
			expect(loaded).toMatchObject(saved.parameters);
		},
	);

	test('example 1\'s builder list (State, Pool "Must Have" on, an equity range) runs as saved and sends the criteria it always sent', async () => {
		const builder = propRadarNodes.find((saved) => saved.parameters.criteriaMode === 'builder')!;
		const before = sb.requests.length;
		const [list] = await runOk(sb, builder.parameters);
		expect(list.ListID).toBeDefined();
		const [created] = sb.requests.slice(before).filter((request) => request.method === 'POST');
		expect(JSON.parse(created.body)).toMatchObject({
			Criteria: [
				{ name: 'State', value: ['OR'] },
				{ name: 'Pool', value: [1] },
				{ name: 'AvailableEquity', value: [[100000, null]] },
			],
		});
	});
});

describe('lead filters: one choice each, sent as one criterion', () => {
	test.each([
		['absenteeOwner', 'Absentee Owner', { name: 'isSameMailingOrExempt', value: [0] }],
		['highEquity', 'High Equity (50% or More)', { name: 'EquityPercent', value: [[50, null]] }],
		['preForeclosure', 'Pre-Foreclosure', { name: 'ForeclosureStage', value: ['Preforeclosure'] }],
		['isFreeAndClear', 'Free and Clear', { name: 'isFreeAndClear', value: [1] }],
		['isListedForSale', 'Listed for Sale', { name: 'isListedForSale', value: [1] }],
		['vacant', 'Vacant', { name: 'isSiteVacant', value: [1] }],
		['taxDelinquent', 'Tax-Delinquent', { name: 'inTaxDelinquency', value: [1] }],
	])('%s (%s) with Oregon', async (name, label, criterion) => {
		const choice = (shownFor(name)[0].options as INodePropertyOptions[]).find(
			(option) => option.value === name,
		)!;
		expect(choice.name).toBe(label);
		const before = sb.sent('/v1/properties').length;
		const [preview] = await runOk(sb, searchPreview([{ name: 'State', values: 'OR' }, { name }]));
		const sent = sb.sent('/v1/properties').slice(before);
		expect(JSON.parse(sent[0].body)).toEqual({
			Criteria: [{ name: 'State', value: ['OR'] }, criterion],
		});
		const expected = await sandboxCount([{ name: 'State', value: ['OR'] }, criterion]);
		expect(expected).toBeGreaterThan(0);
		expect(preview.totalResultCount).toBe(expected);
	});

	test.each([
		['vacant', 'isSiteVacant'],
		['taxDelinquent', 'inTaxDelinquency'],
	])(
		'%s says it sends the property field %s, which the documents do not list, and that Matching Properties checks it',
		(name, field) => {
			const choice = (shownFor(name)[0].options as INodePropertyOptions[]).find(
				(option) => option.value === name,
			)!;
			expect(choice.description).toContain(field);
			expect(choice.description).toMatch(/not listed in PropRadar's documents/);
			expect(choice.description).toMatch(/Matching Properties/);
		},
	);
});

describe('the count of matches under the builder: a free preview', () => {
	const countWith = (parameters: IDataObject): Promise<INodePropertyOptions[]> =>
		(
			node.methods.loadOptions.getCriteriaMatchCount as (
				this: ILoadOptionsFunctions,
			) => Promise<INodePropertyOptions[]>
		).call(
			loadOptionsContext(
				{ baseUrl: sb.url, accessToken: TOKENS.main },
				{ resource: 'property', operation: 'search', ...parameters },
				'parameters.criteriaMatchCount',
			),
		);

	test('counts what the criteria match, with Purchase=0 only, and charges nothing', async () => {
		const chargesBefore = (await chargeLog()).length;
		const requestsBefore = sb.requests.length;
		const line = await countWith({
			criteriaMode: 'builder',
			criteria: {
				criterion: [
					{ name: 'State', values: 'OR' },
					{ name: 'Beds', min: '3', max: '' },
					{ name: 'highEquity' },
				],
			},
		});
		const expected = await sandboxCount([
			{ name: 'State', value: ['OR'] },
			{ name: 'Beds', value: [[3, null]] },
			{ name: 'EquityPercent', value: [[50, null]] },
		]);
		expect(line).toEqual([
			{
				name: `${expected.toLocaleString('en-US')} properties match now (free count, nothing bought)`,
				value: '',
			},
		]);
		const sent = sb.requests
			.slice(requestsBefore)
			.filter((request) => request.path === '/v1/properties');
		expect(sent.map((request) => request.query.get('Purchase'))).toEqual(['0']);
		expect((await chargeLog()).length).toBe(chargesBefore);
	});

	test('JSON criteria are counted the same way', async () => {
		const json = [
			{ name: 'County', value: ['Multnomah'] },
			{ name: 'isFreeAndClear', value: [1] },
		];
		const [line] = await countWith({ criteriaMode: 'json', criteriaJson: JSON.stringify(json) });
		expect(line.name).toBe(
			`${(await sandboxCount(json)).toLocaleString('en-US')} properties match now (free count, nothing bought)`,
		);
	});

	test('unfinished criteria are not sent: the line says what is missing', async () => {
		const requestsBefore = sb.requests.length;
		await expect(countWith({ criteriaMode: 'builder', criteria: {} })).resolves.toEqual([
			{ name: 'Add a criterion to count the properties that match', value: '' },
		]);
		const [range] = await countWith({
			criteriaMode: 'builder',
			criteria: { criterion: [{ name: 'Beds', min: '', max: '' }] },
		});
		expect(range.name).toBe(
			'Not counted yet: Criteria row 1 (Beds): give a minimum, a maximum or both, the minimum not above the maximum',
		);
		expect(sb.requests.slice(requestsBefore)).toHaveLength(0);
	});

	test('the line comes before the criteria rows, where it shows while the first rows are edited, in every operation that has criteria', () => {
		const properties = node.description.properties;
		const shown = (parameters: IDataObject) =>
			properties
				.filter((property) =>
					NodeHelpers.displayParameter(parameters as never, property, null, null),
				)
				.map((property) => property.name)
				.filter((name) => name.startsWith('criteria'));
		for (const operation of [
			{ resource: 'property', operation: 'search' },
			{ resource: 'list', operation: 'create', listType: 'dynamic' },
			{ resource: 'listItem', operation: 'add', addBy: 'criteria' },
		]) {
			expect(shown({ ...operation, criteriaMode: 'builder' })).toEqual([
				'criteriaMode',
				'criteriaMatchCount',
				'criteria',
			]);
			expect(shown({ ...operation, criteriaMode: 'json' })).toEqual([
				'criteriaMode',
				'criteriaMatchCount',
				'criteriaJson',
			]);
		}
	});

	test('the line is read, not saved, and follows the criteria', () => {
		const count = node.description.properties.find(
			(property) =>
				property.name === 'criteriaMatchCount' &&
				property.displayOptions?.show?.resource?.includes('property'),
		)!;
		expect(count.default).toBe('');
		// n8n's editor counts again when the text of these paths' values changes: each field of a row by its own path.
		const dependsOn = count.typeOptions?.loadOptionsDependsOn as string[];
		expect(dependsOn.slice(0, 4)).toEqual([
			'criteriaMode',
			'criteria',
			'criteriaJson',
			'criteria.criterion.length',
		]);
		expect(dependsOn).toEqual(
			expect.arrayContaining([
				'criteria.criterion[0].name',
				'criteria.criterion[0].values',
				'criteria.criterion[29].advancedPropertyTypes',
			]),
		);
	});
});
