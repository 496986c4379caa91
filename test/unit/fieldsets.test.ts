import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { propertyFieldsWithPropId, toFieldsParam } from '../../nodes/PropRadar/shared/fieldsets';
import {
	FIELD_SCOPES,
	PERSON_FIELDSETS,
	PERSON_FIELDS,
	PROPERTY_FIELDSETS,
	PROPERTY_FIELDS,
} from '../../nodes/PropRadar/shared/vocabulary';

const properties = new PropRadar().description.properties;

/** The `fields` picker shown for a resource and operation. */
function pickerFor(resource: string, operation: string): INodeProperties {
	const picker = properties.find(
		(property) =>
			property.name === 'fields' &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation),
	);
	if (!picker) throw new Error(`no Fields picker for ${resource}.${operation}`);
	return picker;
}

function offered(picker: INodeProperties, option: string): string[] {
	const group = (picker.options as INodeProperties[]).find(
		(candidate) => candidate.name === option,
	);
	return ((group?.options ?? []) as INodePropertyOptions[]).map((choice) => String(choice.value));
}

describe('fieldset picker', () => {
	test.each(['get', 'search'])(
		'property %s offers every property fieldset and every field (the vocabulary, which test/unit/vocabulary.test.ts pins to the property document)',
		(operation) => {
			const picker = pickerFor('property', operation);
			expect(offered(picker, 'fieldsets').sort()).toEqual(Object.keys(PROPERTY_FIELDSETS).sort());
			expect(offered(picker, 'include').sort()).toEqual([...PROPERTY_FIELDS].sort());
			expect(offered(picker, 'exclude').sort()).toEqual([...PROPERTY_FIELDS].sort());
		},
	);

	test('list items offer the fieldsets the lists document names, each with PropID', () => {
		const picker = pickerFor('listItem', 'getMany');
		expect(offered(picker, 'fieldsets').sort()).toEqual(
			[
				'GridForeclosureOptional',
				'GridOptional',
				'Card',
				'Map',
				'Mobile',
				'Overview',
				'Details',
				'PropertyTab',
				'LimitedREI',
			].sort(),
		);
		for (const fields of Object.values(FIELD_SCOPES.listItem.fieldsets))
			expect(fields).toContain('PropID');
	});

	test('the person scope has the person fieldsets and fields of the lists document', () => {
		expect(Object.keys(FIELD_SCOPES.person.fieldsets).sort()).toEqual(['default', 'overview']);
		expect(FIELD_SCOPES.person.fields).toBe(PERSON_FIELDS);
		expect(PERSON_FIELDSETS.overview).toContain('isDeceased');
		expect(PERSON_FIELDS).toContain('PersonKey');
	});

	test('a choice becomes the Fields value, suppression with a leading -', () => {
		expect(
			toFieldsParam('property', { fieldsets: ['Overview'], include: ['APN'], exclude: ['Owner'] }),
		).toBe('Overview,APN,-Owner');
		expect(toFieldsParam('property', {})).toBeUndefined();
		expect(toFieldsParam('person', { fieldsets: ['default'], exclude: ['Email'] })).toBe(
			'default,-Email',
		);
	});

	test('unknown names are refused, named', () => {
		expect(() => toFieldsParam('property', { fieldsets: ['Everything'] })).toThrow(
			'Fields: Everything is not allowed here',
		);
		expect(() => toFieldsParam('person', { include: ['AVM', 'Pool'] })).toThrow(
			'Fields: AVM, Pool are not allowed here',
		);
	});
});

describe('fieldset names are own names of the catalogue', () => {
	const INHERITED = [
		'constructor',
		'toString',
		'__proto__',
		'hasOwnProperty',
		'valueOf',
		'isPrototypeOf',
	];

	test.each(Object.keys(FIELD_SCOPES) as Array<keyof typeof FIELD_SCOPES>)(
		'in the %s scope, inherited key names are not fieldsets or fields',
		(scope) => {
			for (const name of INHERITED) {
				expect(() => toFieldsParam(scope, { fieldsets: [name] })).toThrow(
					`Fields: ${name} is not allowed here`,
				);
				expect(() => toFieldsParam(scope, { include: [name] })).toThrow(
					`Fields: ${name} is not allowed here`,
				);
				expect(() => toFieldsParam(scope, { exclude: [name] })).toThrow(
					`Fields: ${name} is not allowed here`,
				);
			}
		},
	);

	test('an unknown scope has no fields', () => {
		expect(() => toFieldsParam('constructor' as never, { include: ['PropID'] })).toThrow(
			'Fields: "constructor" has no fields',
		);
	});

	test('an expression may give the names as comma-separated text; anything else is refused naming the part', () => {
		expect(toFieldsParam('property', { fieldsets: 'Overview, Map', exclude: 'Owner' })).toBe(
			'Overview,Map,-Owner',
		);
		expect(() => toFieldsParam('property', { fieldsets: 5 as never })).toThrow(
			'Fields > Fieldsets: must be a list of names, or names separated by commas',
		);
		expect(() => toFieldsParam('property', { include: [{}] as never })).toThrow(
			'Fields > Single Fields to Add: must be a list of names',
		);
		expect(() => toFieldsParam('property', 'Overview' as never)).toThrow(
			'Fields: must be a choice of Fieldsets, Single Fields to Add, Single Fields to Suppress',
		);
	});
});

describe('the Fields picker reads in task order, its fieldsets by what they hold', () => {
	const pickers = properties.filter(
		(property) => property.name === 'fields' && property.type === 'collection',
	);
	const where = (picker: INodeProperties) =>
		`${String(picker.displayOptions?.show?.resource)}.${String(picker.displayOptions?.show?.operation)}`;

	test('there is a Fields picker per operation that takes Fields', () => {
		expect(pickers.length).toBeGreaterThanOrEqual(10);
	});

	test.each(pickers.map((picker) => [where(picker), picker] as const))(
		'%s: fieldsets first, then single fields to add, then fields to suppress, then (where the documents leave the fields open) unlisted ones; alphabetical too',
		(_where, picker) => {
			const parts = picker.options as INodeProperties[];
			const order = parts.map((part) => part.name);
			expect(order).toEqual([
				...(order.includes('fieldsets') ? ['fieldsets'] : []),
				'include',
				'exclude',
				...(order.includes('other') ? ['other'] : []),
			]);
			// n8n's lint puts the options of a collection of five or more in alphabetical order: this order holds then too.
			const names = parts.map((part) => part.displayName);
			expect([...names].sort((a, b) => a.localeCompare(b))).toEqual(names);
		},
	);

	const fieldsetChoices = pickers.flatMap((picker) =>
		(
			((picker.options as INodeProperties[]).find((part) => part.name === 'fieldsets')?.options as
				INodePropertyOptions[] | undefined) ?? []
		).map((choice) => [where(picker), choice] as const),
	);

	test.each(fieldsetChoices)(
		'%s: %p is "Readable Label (ApiName)" and says what it holds, then its fields',
		(_where, choice) => {
			const [, label, apiName] =
				/^([A-Z][a-z']*(?: (?:and|in|of|[A-Z][A-Za-z']*))*) \((\w+)\)$/.exec(choice.name) ?? [];
			expect(apiName).toBe(choice.value);
			expect(label).not.toBe(apiName);
			expect(choice.description).toMatch(/^[A-Z][^]*\. \d+ fields?: \S[^]*\.$/);
		},
	);

	test('person and property fieldsets look alike, and the API names stay the values sent', () => {
		const choices = (resource: string, operation: string) =>
			(pickerFor(resource, operation).options as INodeProperties[]).find(
				(part) => part.name === 'fieldsets',
			)!.options as INodePropertyOptions[];
		expect(choices('person', 'getOwners').map(({ name, value }) => ({ name, value }))).toEqual([
			{ name: 'Owner in Full (default)', value: 'default' },
			{ name: 'Owner Overview (overview)', value: 'overview' },
		]);
		const property = choices('property', 'get');
		expect(property.find((choice) => choice.value === 'Overview')?.name).toBe(
			'Property Overview (Overview)',
		);
		expect(property.find((choice) => choice.value === 'MyInfoTab')?.description).toBe(
			'Only the disclaimer and the links of the My Info tab. 2 fields: DisclaimerDetails, _links.',
		);
		for (const list of [property, choices('person', 'getOwners')]) {
			const names = list.map((choice) => choice.name);
			expect([...names].sort((a, b) => a.localeCompare(b))).toEqual(names);
		}
	});
});

describe('fieldset names in any case, as the documents write them', () => {
	test("the documents' own example, Fields=overview,Persons on a property endpoint, is the property fieldset Overview with Persons", () => {
		expect(toFieldsParam('property', { fieldsets: 'overview', include: 'Persons' })).toBe(
			'Overview,Persons',
		);
		expect(toFieldsParam('person', { fieldsets: ['Overview', 'DEFAULT'] })).toBe(
			'overview,default',
		);
		expect(toFieldsParam('listItem', { fieldsets: ['gridforeclosureoptional'] })).toBe(
			'GridForeclosureOptional',
		);
	});

	test('a field name is not a fieldset whatever its case, and fields keep theirs', () => {
		expect(() => toFieldsParam('property', { fieldsets: ['persons'] })).toThrow(
			'Fields: persons is not allowed here',
		);
		expect(() => toFieldsParam('property', { include: ['persons'] })).toThrow(
			'Fields: persons is not allowed here',
		);
	});
});

describe('scopes whose fields the documents leave open ("not shown")', () => {
	const OPEN = [
		'list',
		'listItem',
		'importItem',
		'webhook',
		'transaction',
		'bankruptcies',
		'divorces',
		'liens',
		'probates',
		'relatives',
	] as const;

	test.each(OPEN)(
		'%s: a name the documents do not list is sent as given, whichever part it is in',
		(scope) => {
			expect(
				toFieldsParam(scope, {
					include: ['CaseType'],
					exclude: 'Court',
					other: 'FilingCounty, -Judge',
				}),
			).toBe('CaseType,-Court,FilingCounty,-Judge');
			expect(toFieldsParam(scope, { fieldsets: ['Detailed'] })).toBe('Detailed');
		},
	);

	test.each(OPEN)('%s: what cannot be a field name is refused, named', (scope) => {
		expect(() => toFieldsParam(scope, { other: 'Filing County' })).toThrow(
			'Fields: Filing County is not allowed here',
		);
		expect(() => toFieldsParam(scope, { include: ['Amount;drop'] })).toThrow(
			'Fields: Amount;drop is not allowed here',
		);
		expect(() => toFieldsParam(scope, { other: '--Court' })).toThrow(
			'Fields: --Court is not allowed here',
		);
		expect(() => toFieldsParam(scope, { other: 'constructor' })).toThrow(
			'Fields: constructor is not allowed here',
		);
	});

	test('a scope the documents spell out still refuses names it does not have, in every part', () => {
		expect(() => toFieldsParam('property', { include: ['CaseType'] })).toThrow(
			'Fields: CaseType is not allowed here',
		);
		expect(() => toFieldsParam('person', { other: 'CaseType' })).toThrow(
			'Fields: CaseType is not allowed here',
		);
	});

	test("only the open scopes' pickers offer Unlisted Fields", () => {
		const withOther = properties.filter(
			(property) =>
				property.name === 'fields' &&
				(property.options as INodeProperties[]).some((part) => part.name === 'other'),
		);
		expect(
			withOther
				.map((picker) =>
					String(picker.displayOptions?.show?.recordKind ?? picker.displayOptions?.show?.operation),
				)
				.sort(),
		).toEqual([
			'bankruptcies',
			'divorces',
			'get',
			'getMany',
			'getMany',
			'getMany',
			'getMany',
			'getTransactions',
			'import',
			'liens',
			'probates',
			'relatives',
		]);
	});
});

describe('propertyFieldsWithPropId: what a read by PropID criterion asks for', () => {
	test.each([
		[undefined, 'PropID,Overview', true],
		['Map,Address,-PType', 'Map,Address,-PType', true],
		['-Owner', 'PropID,Overview,-Owner', true],
		['Address,City', 'Address,City,PropID', false],
		['Overview,-PropID', 'Overview,PropID', false],
		['Map,-Map', 'Map,PropID,-PType,-Latitude,-Longitude', false],
	])('%p asks for %p (PropID shown: %p)', (fields, sent, showsPropId) => {
		expect(propertyFieldsWithPropId(fields)).toEqual({ fields: sent, showsPropId });
	});
});
