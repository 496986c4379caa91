#!/usr/bin/env node
// The copy's measures (issue 58, step 6): the README's length and where its quick start begins; for
// the README and each docs/*.md, how many sentences, their average length in words and the longest;
// and the word counts of the error messages the nodes construct and of the parameters' descriptions.
// `node scripts/copy.js` prints them (`--messages` lists every message, longest first;
// `--descriptions` the descriptions over two sentences); test/unit/copy.test.ts holds the limits.
//
// How Markdown counts, so that a measure reads prose as a user reads it:
// - Fenced code blocks, HTML comments, headings and image lines are not prose: left out.
// - A paragraph's lines are one text; each list item and each table cell is a text of its own (a
//   table's header row and its |---| row are labels: left out). A text ends its last sentence
//   whether or not it ends with a full stop.
// - A sentence ends at ".", "!" or "?" followed by a space and a capital, a digit, a code span, a
//   quote, a bracket, emphasis or "n8n" (not after "e.g.", "i.e.", "etc." or "vs.").
// - A word is a run of non-space characters with a letter or a digit in it: "$0.10", "`PropID`" and
//   "Get Many" (two) count; "·", "|" and "→" do not. A link counts as its text, not its address.
// - A fragment of fewer than three words ("Yes", "Preview first.", "List (`list`)") is a label,
//   not a sentence: it is left out rather than pulling the average down.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const MIN_SENTENCE_WORDS = 3;
const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|etc|vs|cf)\.$/i;

/** A line of Markdown as plain text: link addresses, emphasis and code marks dropped. */
function plain(line) {
	return line
		.replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\*\*|__/g, '')
		.replace(/(^|\W)[*_](?=\S)|(?<=\S)[*_](?=\W|$)/g, '$1');
}

function words(text) {
	return text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token));
}

/** The texts of a Markdown document: paragraphs, list items, table cells (see above). */
function texts(markdown) {
	const found = [];
	let paragraph = [];
	const flush = () => {
		if (paragraph.length) found.push(paragraph.join(' '));
		paragraph = [];
	};
	let fenced = false;
	const lines = markdown.replace(/<!--[\s\S]*?-->/g, '').split('\n');
	for (const raw of lines) {
		const line = raw.replace(/^\s*>\s?/, '');
		if (/^\s*(```|~~~)/.test(line)) {
			flush();
			fenced = !fenced;
			continue;
		}
		if (fenced) continue;
		if (/^\s*$/.test(line) || /^#{1,6}\s/.test(line) || /^\s*!\[/.test(line)) {
			flush();
			continue;
		}
		if (/^\s*\|/.test(line)) {
			flush();
			if (/^\s*\|[\s:|-]+\|?\s*$/.test(line)) {
				// The row above was the header: labels, not prose.
				found.pop();
				continue;
			}
			const cells = line
				.trim()
				.replace(/^\||\|$/g, '')
				.split(/(?<!\\)\|/);
			// A row is pushed as one text per cell; the header row is taken back by the |---| row.
			found.push(cells.map((cell) => cell.trim()));
			continue;
		}
		const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
		if (item) {
			flush();
			paragraph = [item[1]];
			continue;
		}
		paragraph.push(line.trim());
	}
	flush();
	return found.flat().map(plain);
}

/** The sentences of a text, each as its words (those under `least` words left out as labels). */
function sentences(text, least = MIN_SENTENCE_WORDS) {
	const found = [];
	let start = 0;
	const end = /[.!?]["')\]]*\s+(?=[\p{Lu}\p{N}`"'(\[$]|n8n)/gu;
	let match;
	while ((match = end.exec(text))) {
		const candidate = text.slice(start, match.index + 1);
		if (ABBREVIATIONS.test(candidate)) continue;
		found.push(candidate);
		start = match.index + match[0].length;
	}
	found.push(text.slice(start));
	return found.map(words).filter((counted) => counted.length >= least);
}

/** Sentences, average words a sentence and the longest sentence of a Markdown document. */
function measureProse(markdown) {
	const all = texts(markdown).flatMap((text) => sentences(text));
	const total = all.reduce((sum, sentence) => sum + sentence.length, 0);
	const longest = all.reduce(
		(most, sentence) => (sentence.length > most.length ? sentence : most),
		[],
	);
	return {
		sentences: all.length,
		averageWords: all.length ? Math.round((total / all.length) * 10) / 10 : 0,
		longestWords: longest.length,
		longest: longest.join(' '),
		over40: all.filter((sentence) => sentence.length > 40).length,
	};
}

/** The README's line count and the line of its quick start (the heading that says so). */
function measureReadme(markdown) {
	const lines = markdown.split('\n');
	const count = lines.length - (markdown.endsWith('\n') ? 1 : 0);
	const quickStart = lines.findIndex((line) => /^#{2,3}\s+Quick start/i.test(line));
	return { lines: count, quickStartLine: quickStart === -1 ? undefined : quickStart + 1 };
}

function read(relative) {
	return fs.readFileSync(path.join(ROOT, relative), 'utf8');
}

function documents() {
	const docs = fs
		.readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.sort()
		.map((name) => `docs/${name}`);
	return ['README.md', 'CONTRIBUTING.md', ...docs];
}

function median(values, at) {
	if (!values.length) return 0;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(at * sorted.length) - 1)];
}

// Error messages: every `new NodeApiError`, `new NodeOperationError` and `new ApplicationError` in
// nodes/ and credentials/, read with the TypeScript compiler. A message is the literal text that
// reaches the constructor: a string, a template (each `${...}` one word), either branch of a
// condition, a `+` of those, a const or a `let` and what is assigned to it, and a function's
// parameter followed to the arguments of its calls. Anything else (an Error's own message, the
// service's answer) is not copy written here: counted apart as "not literal text".
const ERROR_CLASSES = new Set(['NodeApiError', 'NodeOperationError', 'ApplicationError']);

function errorMessages() {
	const ts = require('typescript');
	const sourceFiles = ['nodes', 'credentials'].flatMap((dir) => tsFiles(dir));
	const host = {
		getScriptFileNames: () => sourceFiles,
		getScriptVersion: () => '1',
		getScriptSnapshot: (file) =>
			fs.existsSync(file) ? ts.ScriptSnapshot.fromString(fs.readFileSync(file, 'utf8')) : undefined,
		getCurrentDirectory: () => ROOT,
		getCompilationSettings: () => ({
			target: ts.ScriptTarget.ES2022,
			module: ts.ModuleKind.CommonJS,
			strict: true,
		}),
		getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
		fileExists: ts.sys.fileExists,
		readFile: ts.sys.readFile,
		readDirectory: ts.sys.readDirectory,
	};
	const service = ts.createLanguageService(host);
	const program = service.getProgram();
	const checker = program.getTypeChecker();
	const where = (node) => {
		const source = node.getSourceFile();
		const { line } = source.getLineAndCharacterOfPosition(node.getStart());
		return `${path.relative(ROOT, source.fileName)}:${line + 1}`;
	};

	// Every text an expression can be, or undefined when it is not text written here.
	const resolve = (expression, depth) => {
		if (!expression || depth > 6) return undefined;
		if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression))
			return [expression.text];
		if (ts.isTemplateExpression(expression))
			return [
				expression.head.text +
					expression.templateSpans.map((span) => ' X ' + span.literal.text).join(''),
			];
		if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression))
			return resolve(expression.expression, depth);
		if (ts.isConditionalExpression(expression)) {
			const either = [
				resolve(expression.whenTrue, depth),
				resolve(expression.whenFalse, depth),
			].filter(Boolean);
			return either.length ? either.flat() : undefined;
		}
		if (
			ts.isBinaryExpression(expression) &&
			expression.operatorToken.kind === ts.SyntaxKind.PlusToken
		) {
			const left = resolve(expression.left, depth) ?? ['X'];
			const right = resolve(expression.right, depth) ?? ['X'];
			return left.flatMap((a) => right.map((b) => a + b)).slice(0, 20);
		}
		if (ts.isIdentifier(expression)) return resolveSymbol(expression, depth);
		return undefined;
	};

	const resolveSymbol = (identifier, depth) => {
		const symbol = checker.getSymbolAtLocation(identifier);
		const declaration = symbol?.valueDeclaration;
		if (!declaration) return undefined;
		if (ts.isVariableDeclaration(declaration)) {
			const values = [resolve(declaration.initializer, depth + 1)];
			// A `let` takes what is assigned to it too.
			const scope = declaration.parent.parent.parent;
			const visit = (node) => {
				if (
					ts.isBinaryExpression(node) &&
					node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
					ts.isIdentifier(node.left) &&
					checker.getSymbolAtLocation(node.left) === symbol
				)
					values.push(resolve(node.right, depth + 1));
				ts.forEachChild(node, visit);
			};
			if (scope) visit(scope);
			const known = values.filter(Boolean).flat();
			return known.length ? known : undefined;
		}
		if (ts.isParameter(declaration)) {
			const fn = declaration.parent;
			const index = fn.parameters.indexOf(declaration);
			const name = fn.name ?? (ts.isVariableDeclaration(fn.parent) ? fn.parent.name : undefined);
			if (!name) return undefined;
			const references =
				service.findReferences(name.getSourceFile().fileName, name.getStart()) ?? [];
			const values = [];
			for (const reference of references.flatMap((entry) => entry.references)) {
				const file = program.getSourceFile(reference.fileName);
				let node = findNode(ts, file, reference.textSpan.start);
				while (node && !ts.isCallExpression(node) && node.parent && !ts.isSourceFile(node.parent)) {
					if (ts.isCallExpression(node.parent) && node.parent.expression === node) {
						node = node.parent;
						break;
					}
					if (!ts.isPropertyAccessExpression(node.parent)) break;
					node = node.parent;
				}
				if (node && ts.isCallExpression(node))
					values.push(resolve(node.arguments[index], depth + 1));
			}
			const known = values.filter(Boolean).flat();
			return known.length ? known : undefined;
		}
		return undefined;
	};

	// The `message` of an options object: written in place, either branch of a condition, or a const.
	const optionsMessage = (expression, depth) => {
		if (!expression || depth > 4) return undefined;
		if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression))
			return optionsMessage(expression.expression, depth);
		if (ts.isConditionalExpression(expression)) {
			const either = [
				optionsMessage(expression.whenTrue, depth),
				optionsMessage(expression.whenFalse, depth),
			];
			return either.some(Boolean) ? either.filter(Boolean).flat() : undefined;
		}
		if (ts.isIdentifier(expression)) {
			const declaration = checker.getSymbolAtLocation(expression)?.valueDeclaration;
			return declaration && ts.isVariableDeclaration(declaration)
				? optionsMessage(declaration.initializer, depth + 1)
				: undefined;
		}
		if (!ts.isObjectLiteralExpression(expression)) return undefined;
		for (const property of expression.properties) {
			if (ts.isPropertyAssignment(property) && property.name.getText() === 'message')
				return resolve(property.initializer, depth);
			if (ts.isShorthandPropertyAssignment(property) && property.name.text === 'message')
				return resolve(property.name, depth);
			if (ts.isSpreadAssignment(property)) {
				const spread = optionsMessage(property.expression, depth + 1);
				if (spread) return spread;
			}
		}
		return undefined;
	};
	const errorShaped = (object) =>
		ts.isObjectLiteralExpression(object) &&
		object.properties.some((property) => property.name?.getText() === 'description');
	// Whether an object literal is the options argument of an error's constructor (counted there).
	const isConstructorOptions = (property) => {
		let node = property.parent;
		while (
			node &&
			(ts.isObjectLiteralExpression(node) ||
				ts.isParenthesizedExpression(node) ||
				ts.isConditionalExpression(node))
		)
			node = node.parent;
		return Boolean(
			node &&
			ts.isNewExpression(node) &&
			ts.isIdentifier(node.expression) &&
			ERROR_CLASSES.has(node.expression.text),
		);
	};

	const messages = [];
	const unresolved = [];
	// Parameter descriptions: the `description` of an object with a `displayName` (a parameter, an
	// option), which the panel shows under the field; issue 58 asks for two sentences at most.
	const descriptions = [];
	let sites = 0;
	for (const file of sourceFiles) {
		const source = program.getSourceFile(file);
		const visit = (node) => {
			if (
				ts.isNewExpression(node) &&
				ts.isIdentifier(node.expression) &&
				ERROR_CLASSES.has(node.expression.text)
			) {
				sites++;
				const args = node.arguments ?? [];
				const texts =
					node.expression.text === 'ApplicationError'
						? resolve(args[0], 0)
						: (args
								.slice(2)
								.map((arg) => optionsMessage(arg, 0))
								.find(Boolean) ?? resolve(args[1], 0));
				if (texts) {
					for (const text of new Set(texts))
						messages.push({ where: where(node), text, words: words(text).length });
				} else unresolved.push(where(node));
			}
			// A message built apart (`failure.message = ...`, or an object with a `message` and a
			// `description`, the shape of an error's options) and handed to the constructor later:
			// counted where it is written. Notices and hints (a `message` alone) are not errors.
			const assigned =
				(ts.isBinaryExpression(node) &&
					node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
					ts.isPropertyAccessExpression(node.left) &&
					node.left.name.text === 'message' &&
					node.right) ||
				(ts.isPropertyAssignment(node) &&
					node.name.getText() === 'message' &&
					errorShaped(node.parent) &&
					!isConstructorOptions(node) &&
					node.initializer);
			if (
				ts.isObjectLiteralExpression(node) &&
				node.properties.some((property) => property.name?.getText() === 'displayName')
			) {
				const description = node.properties.find(
					(property) =>
						ts.isPropertyAssignment(property) && property.name.getText() === 'description',
				);
				for (const text of new Set(resolve(description?.initializer, 0) ?? []))
					descriptions.push({
						where: where(node),
						text,
						words: words(text).length,
						sentences: sentences(text, 1).length,
					});
			}
			if (assigned) {
				const texts = resolve(assigned, 0);
				for (const text of new Set(texts ?? []))
					messages.push({ where: where(node), text, words: words(text).length });
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return { sites, messages, unresolved, descriptions };
}

function findNode(ts, source, position) {
	let found;
	const visit = (node) => {
		if (position >= node.getStart(source) && position < node.getEnd()) {
			found = node;
			ts.forEachChild(node, visit);
		}
	};
	visit(source);
	return found;
}

function tsFiles(dir) {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) return tsFiles(relative);
		return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')
			? [path.join(ROOT, relative)]
			: [];
	});
}

module.exports = {
	errorMessages,
	measureProse,
	measureReadme,
	sentences,
	texts,
	documents,
	read,
	median,
};

if (require.main === module && process.argv[2] === '--long') {
	// `node scripts/copy.js --long FILE [WORDS]`: the sentences of FILE longer than WORDS (default 40).
	const most = Number(process.argv[4] ?? 40);
	for (const sentence of texts(read(process.argv[3])).flatMap((text) => sentences(text)))
		if (sentence.length > most) console.log(`${sentence.length}\t${sentence.join(' ')}\n`);
} else if (require.main === module) {
	const readme = measureReadme(read('README.md'));
	console.log(
		`README.md: ${readme.lines} lines, quick start at line ${readme.quickStartLine ?? '(none)'}`,
	);
	console.log('\nfile\tsentences\taverage words\tlongest\tover 40');
	for (const file of documents()) {
		const prose = measureProse(read(file));
		console.log(
			`${file}\t${prose.sentences}\t${prose.averageWords}\t${prose.longestWords}\t${prose.over40}`,
		);
	}
	const found = errorMessages();
	const counts = found.messages.map((message) => message.words);
	console.log(
		`\nerror messages: ${counts.length} (from ${found.sites} constructions; ${found.unresolved.length} not literal text)` +
			`\n  median ${median(counts, 0.5)} words, p90 ${median(counts, 0.9)}, longest ${Math.max(0, ...counts)}`,
	);
	const long = found.descriptions.filter((description) => description.sentences > 2);
	const described = found.descriptions.map((description) => description.words);
	console.log(
		`\nparameter descriptions: ${described.length}, median ${median(described, 0.5)} words,` +
			` longest ${Math.max(0, ...described)}; ${long.length} over two sentences`,
	);
	if (process.argv.includes('--descriptions'))
		for (const description of long.sort((a, b) => b.words - a.words))
			console.log(`  ${description.words}\t${description.where}\t${description.text}`);
	if (process.argv.includes('--messages')) {
		for (const message of [...found.messages].sort((a, b) => b.words - a.words))
			console.log(`  ${message.words}\t${message.where}\t${message.text}`);
		for (const where of found.unresolved) console.log(`  ?\t${where}`);
	}
}
