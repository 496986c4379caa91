// n8n's verification gate, offline: @n8n/scan-community-package's analyzePackage on the source
// checkout (its SOURCE_FILE_PATTERNS) and on the packed package (`npm pack`, extracted), plus a
// check that the tarball holds only what n8n loads, that the package has no runtime dependencies,
// and that its code requires nothing but its own files, `n8n-workflow` and `crypto` (what n8n
// Cloud gives a community package: the scanner's import rule lets any devDependency through, on
// the assumption that it is bundled). The scanner is installed once into .tools/scan, outside the package's own
// dependencies. Run after `npm run build`. Exit 1 on any finding.
import { execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { installLocked } from './locked-install.js';

const SCANNER_VERSION = '0.32.0';
const root = resolve(import.meta.dirname, '..');
const toolDir = join(root, '.tools', 'scan');
const scannerDir = join(toolDir, 'node_modules', '@n8n', 'scan-community-package');

function installedVersion() {
	const manifest = join(scannerDir, 'package.json');
	return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

if (installedVersion() !== SCANNER_VERSION) {
	console.log(
		`installing @n8n/scan-community-package@${SCANNER_VERSION} into .tools/scan (first run only)`,
	);
	mkdirSync(toolDir, { recursive: true });
	const manifest = {
		name: 'propradar-scan-tools',
		private: true,
		dependencies: { '@n8n/scan-community-package': SCANNER_VERSION },
	};
	installLocked(toolDir, manifest, `scan-community-package-${SCANNER_VERSION}.json`, [
		'--ignore-scripts',
	]);
}

const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
	pathToFileURL(join(scannerDir, 'scanner', 'scanner.mjs')).href
);

let failed = false;
function report(label, result) {
	if (result.passed) {
		console.log(`scan ${label}: passed`);
		return;
	}
	failed = true;
	console.log(`scan ${label}: ${result.message}`);
	if (result.details) console.log(result.details);
}

report('source checkout', await analyzePackage(root, SOURCE_FILE_PATTERNS));

const workDir = mkdtempSync(join(tmpdir(), 'propradar-pack-'));
try {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', workDir], {
			cwd: root,
			encoding: 'utf8',
		}),
	)[0];
	const allowed = /^(package\.json|README\.md|LICENSE|dist\/(nodes|credentials|icons)\/.+)$/;
	const strays = packed.files.map((file) => file.path).filter((path) => !allowed.test(path));
	if (strays.length > 0) {
		failed = true;
		console.log(`scan packed package: files n8n does not load: ${strays.join(', ')}`);
	}
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	if (Object.keys(manifest.dependencies ?? {}).length > 0) {
		failed = true;
		console.log(
			`scan packed package: runtime dependencies: ${Object.keys(manifest.dependencies).join(', ')}`,
		);
	}
	execFileSync('tar', ['xzf', join(workDir, packed.filename), '-C', workDir]);
	const runtimeModules = /^(\.{1,2}\/.*|n8n-workflow|crypto|node:crypto)$/;
	const packageDir = join(workDir, 'package');
	const required = readdirSync(packageDir, { recursive: true })
		.filter((file) => file.endsWith('.js'))
		.flatMap((file) =>
			[
				...readFileSync(join(packageDir, file), 'utf8').matchAll(
					/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)|\bimport\(\s*["'`]([^"'`]+)/g,
				),
			].map((match) => `${match[1] ?? match[2]} (${file})`),
		)
		.filter((entry) => !runtimeModules.test(entry.split(' ')[0]));
	if (required.length > 0) {
		failed = true;
		console.log(
			`scan packed package: requires what n8n does not give a community package at run time: ${required.join(', ')}`,
		);
	}
	report(
		`packed package (${packed.filename}, ${packed.entryCount} files)`,
		await analyzePackage(join(workDir, 'package'), ['**/*.js', '**/*.json']),
	);
} finally {
	rmSync(workDir, { recursive: true, force: true });
}

process.exit(failed ? 1 : 0);
