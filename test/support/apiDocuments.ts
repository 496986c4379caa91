/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The API documents' own text: test/fixtures/api-documents.md holds excerpts copied verbatim from
 * the lists document and the property document, each headed by its section. What the tests take
 * from here is neither the node's vocabulary nor the sandbox's.
 */
const FIXTURE = readFileSync(join(__dirname, '..', 'fixtures', 'api-documents.md'), 'utf8');

/** The lines of the excerpt whose heading names this section. */
export function excerpt(section: string): string[] {
	const parts = FIXTURE.split(/^<!-- excerpt: (.+) -->$/m);
	const index = parts.findIndex(
		(heading, position) => position % 2 === 1 && heading.endsWith(`section "${section}"`),
	);
	if (index < 0) throw new Error(`the fixture has no excerpt of "${section}"`);
	return parts[index + 1].split('\n').filter((line) => line.trim() !== '');
}

/** A comma-separated list of the documents ("A, B, C." or "A, B, C"). */
export const names = (text: string): string[] =>
	text
		.replace(/\.$/, '')
		.split(', ')
		.map((name) => name.trim());

/** The rows of a markdown table in an excerpt: cells, header and rule left out. */
export function rows(lines: string[]): string[][] {
	return lines
		.filter((line) => line.startsWith('|') && !line.startsWith('|---'))
		.slice(1)
		.map((line) =>
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim()),
		);
}

export function match(lines: string[], pattern: RegExp): RegExpExecArray {
	for (const line of lines) {
		const found = pattern.exec(line);
		if (found) return found;
	}
	throw new Error(`no line matches ${pattern}`);
}

/** The fields of a property fieldset (`**Name**: A, B.`), in the property document's order. */
export function propertyFieldset(name: string): string[] {
	const [, fields] = match(
		excerpt('Resources and their fields'),
		new RegExp(`^\\*\\*${name}\\*\\*: (.+)$`),
	);
	return names(fields);
}

/** The fields of a person fieldset (`- name: A, B.`), in the lists document's order. */
export function personFieldset(name: string): string[] {
	const [, fields] = match(
		excerpt('Resources and their fields > Person'),
		new RegExp(`^- ${name}: (.+)$`),
	);
	return names(fields);
}

/** The allowed values of an import status dimension ("Property import status", "Person import status"). */
export function importStatuses(dimension: string): string[] {
	const row = rows(excerpt('Resources and their fields > Import item')).find(
		([name]) => name === dimension,
	);
	if (!row) throw new Error(`the Import item excerpt has no "${dimension}"`);
	return names(row[1]);
}

/** The fields of the Automation table, in its order. */
export const AUTOMATION_FIELDS = rows(
	excerpt('Resources and their fields > Automation (one per list)'),
).map(([field]) => field);
