/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What CHANGELOG.md and CONTRIBUTING promise of a release: a version tag runs every test, then
 * publishes through n8n's own release command (`n8n-node release`: lint, build, `npm publish` with
 * npm provenance, which n8n's verification of community packages asks for).
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

test('a version tag runs every test on the tagged commit, then publishes it as n8n-nodes-starter does: npm ci, npm run release', () => {
	const workflow = read('.github/workflows/release.yml');
	expect(workflow).toMatch(/\non:\n {2}push:\n {4}tags:\n {6}- '\*\.\*\.\*'\n/);
	expect(job(workflow, 'test')).toContain('run: bash .ci/run');
	const publish = job(workflow, 'publish');
	expect(publish).toContain('needs: test');
	expect(publish).toMatch(/\n {4}permissions:\n {6}id-token: write\n {6}contents: read\n/);
	expect(publish).toContain(
		`run: test "$GITHUB_REF_NAME" = "$(node -p 'require("./package.json").version')"`,
	);
	expect(publish).toContain('run: npm ci\n');
	// Trusted publishing (OIDC) when no NPM_TOKEN secret is set; the token only as the fallback.
	expect(publish).toContain(
		'[ -n "$NPM_TOKEN" ] && npm config set //registry.npmjs.org/:_authToken "$NPM_TOKEN"\n          npm run release\n',
	);
	expect(publish).toContain('NPM_TOKEN: ${{ secrets.NPM_TOKEN }}');
	expect(publish).not.toMatch(/npm publish|npm install/);
});

test("npm run release is n8n's release command, and a publish outside it is refused", () => {
	const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
	expect(scripts.release).toBe('n8n-node release');
	expect(scripts.prepublishOnly).toBe('n8n-node prerelease');
	const env = { ...process.env };
	delete env.RELEASE_MODE;
	const refused = spawnSync('npm', ['run', '--silent', 'prepublishOnly'], {
		cwd: root,
		env,
		encoding: 'utf8',
	});
	expect(refused.status).toBe(1);
	expect(refused.stdout).toContain('Run `npm run release` to publish the package');
});

test('CI runs the same command on every push and pull request', () => {
	const workflow = read('.github/workflows/ci.yml');
	expect(workflow).toMatch(/\non:\n {2}push:\n {4}branches: \[main\]\n {2}pull_request:\n/);
	expect(job(workflow, 'test')).toContain('run: bash .ci/run');
	expect(read('.ci/run')).toContain('bash scripts/test.sh');
});

test("the CHANGELOG's newest version entry (below Unreleased, if any) is the version in package.json", () => {
	const { version } = JSON.parse(read('package.json')) as { version: string };
	const newest = /^## (?!Unreleased)(\S+)/m.exec(read('CHANGELOG.md'));
	expect(newest?.[1]).toBe(version);
});

test('package.json names one identity: its repository, homepage and bugs URL are the same GitHub owner/repo, and it names an author with an e-mail', () => {
	const pkg = JSON.parse(read('package.json')) as {
		repository?: { url?: string };
		homepage?: string;
		bugs?: { url?: string };
		author?: { name?: string; email?: string };
	};
	const owner = /^git\+https:\/\/github\.com\/([\w.-]+\/[\w.-]+)\.git$/.exec(
		pkg.repository?.url ?? '',
	)?.[1];
	expect(owner).toBeDefined();
	expect(pkg.homepage).toBe(`https://github.com/${owner}#readme`);
	expect(pkg.bugs?.url).toBe(`https://github.com/${owner}/issues`);
	expect(pkg.author?.name).toBeTruthy();
	expect(pkg.author?.email).toMatch(/^[^@\s]+@[^@\s]+$/);
	// The one place a maintainer sets it before the first publish.
	expect(read('CONTRIBUTING.md')).toContain(`\`${owner}\``);
	expect(read('CONTRIBUTING.md')).toContain(`\`${pkg.author?.email}\``);
});
