/**
 * The compiled descriptions of the three nodes and the credential, serialised in one fixed form:
 * what n8n reads of them (a saved workflow's parameters are read against it), so a change of
 * layout must leave it byte for byte the same (test/unit/nodeDescriptions.test.ts).
 */
import { PropRadarApi } from '../../credentials/PropRadarApi.credentials';
import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { PropRadarPollingTrigger } from '../../nodes/PropRadar/PropRadarPollingTrigger.node';
import { PropRadarTrigger } from '../../nodes/PropRadar/PropRadarTrigger.node';

export const NODE_DESCRIPTIONS_FIXTURE = 'test/fixtures/node-descriptions.json';

/** A function (the credential's `authenticate`, a description's callback) is named, not dropped. */
const named = (_key: string, value: unknown) =>
	typeof value === 'function' ? `[function ${value.name}]` : value;

export function serialisedDescriptions(): string {
	const credential = new PropRadarApi();
	const descriptions = {
		nodes: {
			PropRadar: new PropRadar().description,
			PropRadarTrigger: new PropRadarTrigger().description,
			PropRadarPollingTrigger: new PropRadarPollingTrigger().description,
		},
		credential: { ...credential },
	};
	return `${JSON.stringify(descriptions, named, '\t')}\n`;
}
