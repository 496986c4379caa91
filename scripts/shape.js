#!/usr/bin/env node
// The package's shape (CONTRIBUTING.md, "Size and shape"): lines of nodes/ and credentials/, the
// functions over 80 lines and the files over 300 (data tables aside), and import circles in nodes/,
// credentials/ and sandbox/. `node scripts/shape.js` prints them; `--json` for the test.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 300;
// Data tables: what the API names and prices, not code. They may be longer than a file of code.
const DATA_TABLES = new Set(['nodes/PropRadar/shared/vocabulary.ts']);

function files(dir) {
	const found = [];
	for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) found.push(...files(relative));
		else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(relative);
	}
	return found;
}

function lineOf(source, position) {
	return source.getLineAndCharacterOfPosition(position).line + 1;
}

function functionName(node) {
	if (node.name) return node.name.getText();
	const parent = node.parent;
	if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
	if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
	return '(anonymous)';
}

function longFunctions(file, source) {
	const long = [];
	const visit = (node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const lines = lineOf(source, node.getEnd()) - lineOf(source, node.getStart(source)) + 1;
			if (lines > MAX_FUNCTION_LINES) long.push({ file, name: functionName(node), lines });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return long;
}

function localImports(file, source) {
	const imports = [];
	for (const statement of source.statements) {
		const specifier =
			(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
			statement.moduleSpecifier &&
			ts.isStringLiteral(statement.moduleSpecifier)
				? statement.moduleSpecifier.text
				: undefined;
		if (!specifier || !specifier.startsWith('.')) continue;
		const base = path.join(path.dirname(file), specifier);
		const target = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) =>
			fs.existsSync(path.join(ROOT, candidate)),
		);
		if (target) imports.push(target);
	}
	return imports;
}

// Strongly connected components of more than one file (Tarjan), or a file importing itself.
function circles(graph) {
	let index = 0;
	const indexes = new Map();
	const lows = new Map();
	const stack = [];
	const onStack = new Set();
	const found = [];
	const connect = (file) => {
		indexes.set(file, index);
		lows.set(file, index++);
		stack.push(file);
		onStack.add(file);
		for (const next of graph.get(file) ?? []) {
			if (!indexes.has(next)) {
				connect(next);
				lows.set(file, Math.min(lows.get(file), lows.get(next)));
			} else if (onStack.has(next)) lows.set(file, Math.min(lows.get(file), indexes.get(next)));
		}
		if (lows.get(file) !== indexes.get(file)) return;
		const component = [];
		let member;
		do {
			member = stack.pop();
			onStack.delete(member);
			component.push(member);
		} while (member !== file);
		if (component.length > 1 || (graph.get(file) ?? []).includes(file))
			found.push(component.sort());
	};
	for (const file of graph.keys()) if (!indexes.has(file)) connect(file);
	return found;
}

function measure() {
	const packageFiles = [...files('nodes'), ...files('credentials')];
	const graph = new Map();
	let lines = 0;
	const longFiles = [];
	const longFns = [];
	for (const file of [...packageFiles, ...files('sandbox')]) {
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
		graph.set(file, localImports(file, source));
		if (!packageFiles.includes(file)) continue;
		const fileLines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
		lines += fileLines;
		if (fileLines > MAX_FILE_LINES && !DATA_TABLES.has(file))
			longFiles.push({ file, lines: fileLines });
		longFns.push(...longFunctions(file, source));
	}
	return {
		files: packageFiles.length,
		lines,
		longFiles,
		longFunctions: longFns.sort((a, b) => b.lines - a.lines),
		circles: circles(graph),
	};
}

if (require.main === module) {
	const shape = measure();
	if (process.argv.includes('--json')) {
		console.log(JSON.stringify(shape, null, 2));
	} else {
		console.log(`nodes/ + credentials/: ${shape.lines} lines in ${shape.files} files`);
		console.log(`files over ${MAX_FILE_LINES} lines: ${shape.longFiles.length}`);
		for (const { file, lines } of shape.longFiles) console.log(`  ${lines}\t${file}`);
		console.log(`functions over ${MAX_FUNCTION_LINES} lines: ${shape.longFunctions.length}`);
		for (const { file, name, lines } of shape.longFunctions)
			console.log(`  ${lines}\t${file}\t${name}`);
		console.log(`import circles: ${shape.circles.length}`);
		for (const circle of shape.circles) console.log(`  ${circle.join(' -> ')}`);
	}
}

module.exports = { measure, MAX_FUNCTION_LINES, MAX_FILE_LINES };
