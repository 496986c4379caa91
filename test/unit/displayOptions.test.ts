import type { INodeProperties } from 'n8n-workflow';

import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import { PropRadarPollingTrigger } from '../../nodes/PropRadar/PropRadarPollingTrigger.node';
import { PropRadarTrigger } from '../../nodes/PropRadar/PropRadarTrigger.node';

/** Every property of a description, those nested in collections and fixed collections too. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) =>
			'values' in option
				? allProperties(option.values as INodeProperties[])
				: 'displayName' in option && 'type' in option
					? allProperties([option as INodeProperties])
					: [],
		);
		return [property, ...nested];
	});
}

// n8n 2.0's getParameterDependencies runs Object.keys on each of show and hide: an undefined rule
// makes activating a workflow fail with "Cannot convert undefined or null to object".
test.each([
	['PropRadar', new PropRadar().description.properties],
	['PropRadar Trigger', new PropRadarTrigger().description.properties],
	['PropRadar Polling Trigger', new PropRadarPollingTrigger().description.properties],
])('every displayOptions rule of the %s node is an object', (_node, properties) => {
	const broken = allProperties(properties)
		.filter((property) => property.displayOptions)
		.flatMap((property) =>
			(['show', 'hide'] as const)
				.filter(
					(rule) =>
						rule in property.displayOptions! &&
						(typeof property.displayOptions![rule] !== 'object' ||
							property.displayOptions![rule] === null),
				)
				.map((rule) => `${property.name}.${rule}`),
		);
	expect(broken).toEqual([]);
});
