import { PropRadarTrigger } from '../../nodes/PropRadar/PropRadarTrigger.node';

/**
 * The version a trigger added in n8n's editor gets, by the editor's own rule (n8n 2.41's
 * editor-ui: a node type's `defaultVersion`, else the last of its `version` list): 1.1, whose
 * deliveries n8n reads without evaluating an expression (test/e2e/expressionIsolates.test.ts).
 * Workflows saved with version 1 still load.
 */
test('a trigger added in the editor is version 1.1, and workflows with version 1 still load', () => {
	const { version, defaultVersion } = new PropRadarTrigger().description;
	const versions = Array.isArray(version) ? version : [version];
	expect(defaultVersion ?? versions[versions.length - 1]).toBe(1.1);
	expect(versions).toEqual(expect.arrayContaining([1, 1.1]));
});
