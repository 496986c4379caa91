/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { readFileSync } from 'node:fs';
import type { INodeProperties } from 'n8n-workflow';
import { join } from 'node:path';

import { description as listCreate } from '../../nodes/PropRadar/actions/list/create.operation';
import { description as listGetMany } from '../../nodes/PropRadar/actions/list/getMany.operation';
import {
	AUTOMATION_FLAG_FIELDS,
	AUTOMATION_ID_FIELDS,
	AUTOMATION_LEVEL_MAX,
	AUTOMATION_NUMBERED_ID_FIELDS,
	EMPTY_AUTOMATION,
	fieldNames,
	IMPORT_RECORD_FIELDS,
	LIST_FIELDS,
	LIST_ITEM_FIELDSETS,
	LIST_NAME_MAX_CHARACTERS,
	IMPORT_SOURCES,
	IMPORT_TYPES,
	LIST_TYPES,
	MAX_TRANSACTION_FIELD_IDS,
	PERSON_FIELDS,
	PERSON_FIELDSETS,
	PERSON_RECORD_FIELDSETS,
	PERSON_STATUSES,
	PROPERTY_FIELDS,
	PROPERTY_FIELDSETS,
	PROPERTY_STATUSES,
	TRIGGER_EVENTS,
	TRIGGER_VALUES,
} from '../../nodes/PropRadar/shared/vocabulary';
import { excerpt, match, names, rows } from '../support/apiDocuments';

/**
 * The vocabulary against the API documents' own text (test/fixtures/api-documents.md). A name
 * misspelt in the vocabulary (node and sandbox share it, so no other test notices) fails here.
 */
describe("the vocabulary is the API documents' (test/fixtures/api-documents.md)", () => {
	test('property fieldsets: every fieldset of the property document, in its order, each with its fields in their order', () => {
		const documented = excerpt('Resources and their fields')
			.map((line) => /^\*\*(\w+)\*\*: (.+)$/.exec(line))
			.filter((found): found is RegExpExecArray => found !== null)
			.map(([, name, fields]) => [name, names(fields)]);
		expect(documented.length).toBe(14);
		expect(Object.entries(PROPERTY_FIELDSETS)).toEqual(documented);
	});

	test('property fields: the fields of the property fieldsets, and Persons', () => {
		const documented = new Set(Object.values(PROPERTY_FIELDSETS).flat());
		expect(excerpt('Resources and their fields').join('\n')).toContain(
			'The Persons field of a property',
		);
		expect([...PROPERTY_FIELDS].sort()).toEqual([...new Set([...documented, 'Persons'])].sort());
	});

	test('list-item fieldsets: the names the lists document gives, each listing PropID', () => {
		const [, listed] = match(
			excerpt('Endpoints > List items (GET /v1/lists/{ListID}/items)'),
			/Named fieldsets: ([^.]+)\. Each lists PropID\./,
		);
		expect(Object.keys(LIST_ITEM_FIELDSETS)).toEqual(names(listed));
		for (const fields of Object.values(LIST_ITEM_FIELDSETS)) expect(fields).toContain('PropID');
	});

	test("list fields: every field of the List table, Criteria too; the others are the read fields docs/api.md names from the service's notes", () => {
		const documented = rows(excerpt('Resources and their fields > List'))
			.map(([field]) => field)
			.filter((field) => !field.includes('.'));
		expect(documented).toEqual(expect.arrayContaining(['ListName', 'Criteria']));
		expect(LIST_FIELDS).toEqual(expect.arrayContaining(documented));
		const others = LIST_FIELDS.filter((field) => !documented.includes(field));
		const apiMd = readFileSync(join(__dirname, '../../docs/api.md'), 'utf8').replace(/\n\s*/g, ' ');
		const [, named] = match(
			[apiMd],
			/- `GET \/v1\/lists\/\{ListID\}` and `GET \/v1\/lists` also return (.+?), which the documents do not name/,
		);
		expect(others).toEqual(names(named.replace(/`/g, '')));
	});

	test('person fieldsets and the single person fields', () => {
		const lines = excerpt('Resources and their fields > Person');
		const documented = Object.fromEntries(
			lines
				.map((line) => /^- (\w+): (.+)$/.exec(line))
				.filter((found): found is RegExpExecArray => found !== null)
				.map(([, name, fields]) => [name, names(fields)]),
		);
		expect(PERSON_FIELDSETS).toEqual(documented);
		const [, allowed] = match(
			excerpt('Endpoints > Persons (GET /v1/properties/{PropID}/persons)'),
			/^- Allowed Fields values: (.+), and each of these with a leading - to suppress it\.$/,
		);
		expect([...Object.keys(PERSON_FIELDSETS), ...PERSON_FIELDS]).toEqual(names(allowed));
	});

	test('the bankruptcy Table fieldset', () => {
		const [, fields] = match(
			excerpt('Resources and their fields > Person-related records'),
			/^Bankruptcy fieldset Table: ([^.]+)\./,
		);
		expect(PERSON_RECORD_FIELDSETS.bankruptcies.Table).toEqual(names(fields));
	});

	test('import records and import statuses', () => {
		const lines = excerpt('Resources and their fields > Import item');
		const [, fields] = match(
			lines,
			/Posted import records carry these optional string fields: (.+)\.$/,
		);
		expect(IMPORT_RECORD_FIELDS).toEqual(names(fields));
		const statuses = Object.fromEntries(
			rows(lines).map(([dimension, values]) => [dimension, names(values)]),
		);
		expect(PROPERTY_STATUSES).toEqual(statuses['Property import status']);
		expect(PERSON_STATUSES).toEqual(statuses['Person import status']);
	});

	test('the automation: its fields in order, on/off fields, ID lists, levels and Triggers values', () => {
		const table = rows(excerpt('Resources and their fields > Automation (one per list)'));
		const notes = Object.fromEntries(table.map(([field, , note]) => [field, note]));
		expect(Object.keys(EMPTY_AUTOMATION)).toEqual(table.map(([field]) => field));
		expect([...AUTOMATION_FLAG_FIELDS].sort()).toEqual(
			table
				.filter(([, , note]) => note.startsWith('Enum: 0, 1.'))
				.map(([field]) => field)
				.sort(),
		);
		expect([...AUTOMATION_ID_FIELDS].sort()).toEqual(
			table
				.filter(([, , note]) => note.startsWith('Comma-separated'))
				.map(([field]) => field)
				.sort(),
		);
		expect([...AUTOMATION_NUMBERED_ID_FIELDS].sort()).toEqual(
			table
				.filter(([, , note]) => /^Comma-separated (ListIDs|WebhookIDs)/.test(note))
				.map(([field]) => field)
				.sort(),
		);
		expect(notes.SetInterestLevel).toContain(`0 to ${AUTOMATION_LEVEL_MAX.SetInterestLevel}.`);
		expect(notes.SetStatusLevel).toContain(`1 to ${AUTOMATION_LEVEL_MAX.SetStatusLevel}, or 0`);
		expect(TRIGGER_VALUES).toEqual(names(/^Enum: (.+)$/.exec(notes.Triggers)![1]));
	});

	test('trigger events: the two of the Events section, combined as it says', () => {
		const lines = excerpt('Events');
		expect(Object.values(TRIGGER_EVENTS)).toEqual(rows(lines).map(([trigger]) => trigger));
		expect(lines).toContain(`Both can be combined as ${TRIGGER_VALUES[2]}.`);
	});

	test('limits: list names and custom transaction field IDs', () => {
		const limits = rows(excerpt('Limits')).map(([limit]) => limit);
		expect(limits).toContain(`ListName is truncated to ${LIST_NAME_MAX_CHARACTERS} characters`);
		expect(limits).toContain(
			`Custom field lists accept at most ${MAX_TRANSACTION_FIELD_IDS} field IDs`,
		);
	});
});

test("List > Create and List > Get Many offer the list document's list types, import sources and import types", () => {
	const documented = (field: string) =>
		names(
			match(
				excerpt('Resources and their fields > List'),
				new RegExp(`^\\| ${field} \\|.*Enum: ([^.]+)\\.`),
			)[1],
		).sort();
	const properties = (list: INodeProperties[]): INodeProperties[] =>
		list.flatMap((property) => [
			property,
			...properties(
				(property.options ?? []).filter((option): option is INodeProperties => 'type' in option),
			),
		]);
	const offered = (list: INodeProperties[], name: string) =>
		(properties(list).find((property) => property.name === name)?.options ?? [])
			.map((option) => (option as { value: string }).value)
			.sort();
	expect(documented('ListType')).toEqual([...LIST_TYPES].sort());
	expect(documented('ImportSource')).toEqual([...IMPORT_SOURCES].sort());
	expect(documented('ImportType')).toEqual([...IMPORT_TYPES].sort());
	expect(offered(listCreate, 'listType')).toEqual(documented('ListType'));
	expect(offered(listGetMany, 'ListType')).toEqual(documented('ListType'));
	expect(offered(listCreate, 'importSource')).toEqual(documented('ImportSource'));
	expect(offered(listCreate, 'ImportType')).toEqual(documented('ImportType'));
	expect(offered(listGetMany, 'ImportType')).toEqual(documented('ImportType'));
});

test('fieldNames joins single fields of one scope into a Fields value', () => {
	expect(fieldNames(LIST_FIELDS, 'ListID', 'isMonitored')).toBe('ListID,isMonitored');
	// @ts-expect-error a name the scope does not have is a type error
	expect(fieldNames(LIST_FIELDS, 'ListID', 'ListNam')).toBe('ListID,ListNam');
});
