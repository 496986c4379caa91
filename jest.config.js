/** Test tiers (DESIGN.md section 4): unit and engine run under jest; e2e runs a real n8n (scripts/e2e.sh). */
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }];
const common = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': tsJest },
	moduleFileExtensions: ['ts', 'js', 'json'],
	setupFiles: ['<rootDir>/test/setup-env.ts'],
};
module.exports = {
	projects: [
		{ ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
		{ ...common, displayName: 'sandbox', testMatch: ['<rootDir>/test/sandbox/**/*.test.ts'] },
		{ ...common, displayName: 'engine', testMatch: ['<rootDir>/test/engine/**/*.test.ts'] },
	],
};
