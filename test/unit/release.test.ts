import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What CHANGELOG.md and the README promise of a release: a version tag runs every test, then
 * publishes with npm provenance (what n8n's verification of community packages asks for).
 */
const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The lines of a job of a GitHub Actions workflow: from `  name:` to the next job or the end. */
function job(workflow: string, name: string): string {
	const start = workflow.indexOf(`\n  ${name}:\n`);
	expect(start).toBeGreaterThan(-1);
	const next = workflow.slice(start + 1).search(/\n {2}\S[^\n]*:\n/);
	return next === -1 ? workflow.slice(start) : workflow.slice(start, start + 1 + next);
}

test('a version tag tests the tagged commit with the CI command, then publishes it with npm provenance', () => {
	const workflow = read('.github/workflows/release.yml');
	expect(workflow).toMatch(/\non:\n {2}push:\n {4}tags: \['v\*'\]\n/);
	expect(job(workflow, 'test')).toContain('run: bash .ci/run');
	const publish = job(workflow, 'publish');
	expect(publish).toContain('needs: test');
	expect(publish).toContain('id-token: write');
	expect(publish).toMatch(
		/test "\$GITHUB_REF_NAME" = "v\$\(node -p 'require\("\.\/package\.json"\)\.version'\)"/,
	);
	expect(publish).toContain('run: npm run build');
	expect(publish).toContain('run: npm publish --provenance --access public');
});

test('CI runs the same command on every push and pull request', () => {
	const workflow = read('.github/workflows/ci.yml');
	expect(workflow).toMatch(/\non:\n {2}push:\n {4}branches: \[main\]\n {2}pull_request:\n/);
	expect(job(workflow, 'test')).toContain('run: bash .ci/run');
	expect(read('.ci/run')).toContain('bash scripts/test.sh');
});

test("the CHANGELOG's newest entry is the version in package.json", () => {
	const { version } = JSON.parse(read('package.json')) as { version: string };
	const newest = /^## (\S+)/m.exec(read('CHANGELOG.md'));
	expect(newest?.[1]).toBe(version);
});
