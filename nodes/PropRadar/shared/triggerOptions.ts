import type { INodeProperties } from 'n8n-workflow';

export const triggerOptions = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options,
});

export const splitIntoItems = (off: string): INodeProperties => ({
	displayName: 'Split Into Items',
	name: 'splitIntoItems',
	type: 'boolean',
	default: true,
	description: `Whether to output one item per property; off, ${off}`,
});

export function switchProblem(label: string, value: unknown): string | undefined {
	return typeof value === 'boolean'
		? undefined
		: `${label}: on or off (true or false); got ${JSON.stringify(value)}`;
}
