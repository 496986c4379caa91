/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * test/operations.json, the table of where each operation's tests are, is kept true: it names
 * every operation of the node and nothing else, each with the file it is written in (as its
 * resource's file says) and at least one engine test, and every test file and title it names
 * exists. A title is that of a test or a describe block as the source writes it (`$name` and `%s`
 * of `.each` included).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import * as ts from 'typescript';

import { resources } from '../../nodes/PropRadar/actions/resources';

const ROOT = join(__dirname, '..', '..');
const ACTIONS = 'nodes/PropRadar/actions';

interface Entry {
	code: string;
	tests: Record<string, string[]>;
}
const table = JSON.parse(readFileSync(join(ROOT, 'test', 'operations.json'), 'utf8')) as {
	operations: Record<string, Entry>;
};
const entries = Object.entries(table.operations);
const nodeOperations = Object.entries(resources).flatMap(([resource, module]) =>
	Object.keys(module.operations).map((operation) => `${resource}.${operation}`),
);

const parse = (file: string) =>
	ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);

/** The titles of a test file: the first argument of every describe, it and test call (`.each`, `.only`, `.skip` alike) written as a plain string. */
function titlesIn(file: string): Set<string> {
	const titles = new Set<string>();
	const visit = (node: ts.Node): void => {
		if (ts.isCallExpression(node)) {
			// `test.each(table)('title', ...)` calls what `test.each(table)` gives.
			let callee: ts.Expression = ts.isCallExpression(node.expression)
				? node.expression.expression
				: node.expression;
			while (ts.isPropertyAccessExpression(callee)) callee = callee.expression;
			const [title] = node.arguments;
			if (
				ts.isIdentifier(callee) &&
				['describe', 'it', 'test'].includes(callee.text) &&
				title &&
				(ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title))
			)
				titles.add(title.text);
		}
		ts.forEachChild(node, visit);
	};
	visit(parse(file));
	return titles;
}

/**
 * The file each operation of a resource is written in, read from the `operations` of its
 * `<Name>.resource.ts`: the file of the folder an operation's value is imported from (directly, or
 * through a constant of the resource's file such as `purchaseContactOperation('purchasePhone')`),
 * else the resource's file itself (an operation written there).
 */
function operationFiles(resource: string): Map<string, string[]> {
	const folder = posix.join(ACTIONS, resource);
	const name = readdirSync(join(ROOT, folder)).find((file) => file.endsWith('.resource.ts'));
	if (!name) throw new Error(`${folder} has no .resource.ts file`);
	const resourceFile = posix.join(folder, name);
	const source = parse(resourceFile);
	const importedFrom = new Map<string, string>();
	const constants = new Map<string, ts.Expression>();
	for (const statement of source.statements) {
		if (
			ts.isImportDeclaration(statement) &&
			statement.importClause &&
			!statement.importClause.isTypeOnly
		) {
			const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
			if (!specifier.startsWith('./')) continue;
			const file = `${posix.join(folder, specifier)}.ts`;
			const { name: defaultName, namedBindings } = statement.importClause;
			if (defaultName) importedFrom.set(defaultName.text, file);
			if (namedBindings && ts.isNamespaceImport(namedBindings))
				importedFrom.set(namedBindings.name.text, file);
			if (namedBindings && ts.isNamedImports(namedBindings))
				for (const element of namedBindings.elements) importedFrom.set(element.name.text, file);
		}
		if (ts.isVariableStatement(statement)) {
			for (const declaration of statement.declarationList.declarations)
				if (ts.isIdentifier(declaration.name) && declaration.initializer)
					constants.set(declaration.name.text, declaration.initializer);
		}
	}
	/** The imported files the names in `node` stand for (property names and `.name`s of accesses are no names of the file). */
	const filesOf = (node: ts.Node, seen = new Set<string>()): string[] => {
		const files: string[] = [];
		const visit = (child: ts.Node): void => {
			const isName =
				ts.isIdentifier(child) &&
				!(ts.isPropertyAssignment(child.parent) && child.parent.name === child) &&
				!(ts.isPropertyAccessExpression(child.parent) && child.parent.name === child);
			if (isName && importedFrom.has(child.text)) files.push(importedFrom.get(child.text)!);
			else if (isName && constants.has(child.text) && !seen.has(child.text))
				files.push(...filesOf(constants.get(child.text)!, seen.add(child.text)));
			ts.forEachChild(child, visit);
		};
		visit(node);
		return [...new Set(files)];
	};
	let operations: ts.ObjectLiteralExpression | undefined;
	const find = (node: ts.Node): void => {
		if (
			ts.isPropertyAssignment(node) &&
			ts.isIdentifier(node.name) &&
			node.name.text === 'operations' &&
			ts.isObjectLiteralExpression(node.initializer)
		)
			operations = node.initializer;
		ts.forEachChild(node, find);
	};
	find(source);
	if (!operations) throw new Error(`${resourceFile} has no \`operations\` object`);
	const files = new Map<string, string[]>();
	for (const property of operations.properties) {
		if (ts.isShorthandPropertyAssignment(property))
			files.set(property.name.text, filesOf(property.name));
		else if (
			ts.isPropertyAssignment(property) &&
			(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))
		)
			files.set(property.name.text, filesOf(property.initializer));
	}
	for (const [operation, found] of files)
		if (found.length === 0) files.set(operation, [resourceFile]);
	return files;
}

test('every operation of the node has an entry', () => {
	expect(nodeOperations.filter((operation) => !(operation in table.operations))).toEqual([]);
});

test('every entry is an operation of the node', () => {
	expect(
		entries
			.map(([operation]) => operation)
			.filter((operation) => !nodeOperations.includes(operation)),
	).toEqual([]);
});

test('every entry names the file its operation is written in', () => {
	const wrong: string[] = [];
	for (const resource of Object.keys(resources)) {
		const files = operationFiles(resource);
		for (const [operation, entry] of entries.filter(([key]) => key.startsWith(`${resource}.`))) {
			const written = files.get(operation.slice(resource.length + 1)) ?? [];
			if (!written.includes(entry.code))
				wrong.push(
					`${operation}: its code is in ${written.join(' or ') || '(not found)'}, not ${entry.code}`,
				);
			else if (!existsSync(join(ROOT, entry.code)))
				wrong.push(`${operation}: ${entry.code} does not exist`);
		}
	}
	expect(wrong).toEqual([]);
});

test('every entry names at least one test of the engine tier', () => {
	expect(
		entries
			.filter(
				([, entry]) => !Object.keys(entry.tests).some((file) => file.startsWith('test/engine/')),
			)
			.map(([operation]) => operation),
	).toEqual([]);
});

test('every test file named exists', () => {
	const files = [...new Set(entries.flatMap(([, entry]) => Object.keys(entry.tests)))];
	expect(
		files.filter(
			(file) => !/^test\/[a-z0-9]+\/[^/]+\.test\.ts$/i.test(file) || !existsSync(join(ROOT, file)),
		),
	).toEqual([]);
});

test('every title named is a test or describe title of its file', () => {
	const titles = new Map<string, Set<string>>();
	const missing: string[] = [];
	for (const [operation, entry] of entries) {
		for (const [file, named] of Object.entries(entry.tests)) {
			if (!existsSync(join(ROOT, file))) continue;
			if (!titles.has(file)) titles.set(file, titlesIn(file));
			if (named.length === 0) missing.push(`${operation}: ${file} names no title`);
			for (const title of named)
				if (!titles.get(file)!.has(title))
					missing.push(`${operation}: ${file} has no test or describe "${title}"`);
		}
	}
	expect(missing).toEqual([]);
});
