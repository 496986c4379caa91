/** Test tiers (docs/design.md, "Tests"). The e2e tier needs the n8n that scripts/n8n-install.sh installs. */
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }];
// Two files of n8n's expression engine, so that its `vm` engine runs under jest as in n8n
// (test/support/expressionRuntimeImport.js says what changes and why).
const N8N_EXPRESSION = '(n8n-workflow/dist/cjs/expression|@n8n/expression-runtime/dist/cjs/runtime/transfer)\\.js$';
const common = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': tsJest, [N8N_EXPRESSION]: '<rootDir>/test/support/expressionRuntimeImport.js' },
	transformIgnorePatterns: [`/node_modules/(?!${N8N_EXPRESSION})`],
	moduleFileExtensions: ['ts', 'js', 'json'],
	setupFilesAfterEnv: ['<rootDir>/test/setup-env.ts'],
	// The n8n installs and packed copies under .tools/ hold package.json files of their own.
	modulePathIgnorePatterns: ['<rootDir>/.tools/', '<rootDir>/dist/'],
};

module.exports = {
	// Engine and sandbox tests run real HTTP with the transport's own backoff (up to 1.75 s per
	// retried read) on machines shared with other work: jest's 5 s default is too tight to mean
	// anything but load. A test that hangs still fails, after a minute. (Jest reads this option
	// here, at the top level; inside a project it is ignored.)
	testTimeout: 60_000,
	projects: [
		{ ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
		{ ...common, displayName: 'sandbox', testMatch: ['<rootDir>/test/sandbox/**/*.test.ts'] },
		{ ...common, displayName: 'engine', testMatch: ['<rootDir>/test/engine/**/*.test.ts'] },
		{
			...common,
			displayName: 'e2e',
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			// The package packed once for every suite's n8n (test/e2e/globalSetup.js).
			globalSetup: '<rootDir>/test/e2e/globalSetup.js',
			globalTeardown: '<rootDir>/test/e2e/globalTeardown.js',
		},
	],
};
