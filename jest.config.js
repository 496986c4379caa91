/** Test tiers (docs/design.md, "Tests"). The e2e tier needs the n8n that scripts/n8n-install.sh installs. */
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }];
const common = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': tsJest },
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
		{ ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
	],
};
