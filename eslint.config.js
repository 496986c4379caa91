const tsParser = require('@typescript-eslint/parser');
const n8nNodesBase = require('eslint-plugin-n8n-nodes-base');
const { n8nCommunityNodesPlugin } = require('@n8n/eslint-plugin-community-nodes');

/**
 * n8n's own lint rules for community packages, applied to what is published: the rules n8n Cloud
 * holds a verified package to (@n8n/eslint-plugin-community-nodes, `recommended`: restricted
 * imports and globals among them), and eslint-plugin-n8n-nodes-base's with the same rules turned
 * off as n8n's package scanner turns off.
 */
module.exports = [
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', '.tools/**', '.e2e/**'] },
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'] },
	{
		files: ['package.json'],
		languageOptions: { parser: require('jsonc-eslint-parser') },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: { parser: tsParser, sourceType: 'module' },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tsParser, sourceType: 'module' },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
];
