import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationModule, ResourceModule } from './types';

/** The selector first, then each operation's parameters in the order of `operations`. */
export function resourceModule({
	operations,
	selector,
}: {
	operations: Record<string, OperationModule>;
	selector: INodeProperties;
}): ResourceModule {
	return {
		operations,
		description: [
			selector,
			...Object.values(operations).flatMap((operation) => operation.description),
		],
	};
}

/** An operation's action and description in the panel, and its name when not its value's words. */
type OperationText = [action: string, description: string, name?: string];

/** A resource's operation selector, shown for that resource only: "getMany" is named "Get Many". */
export function operationSelector(
	resource: string,
	defaultOperation: string,
	operations: Record<string, OperationText>,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: Object.entries(operations).map(([value, [action, description, name]]) => ({
			name: name ?? value.charAt(0).toUpperCase() + value.slice(1).replace(/([A-Z])/g, ' $1'),
			value,
			action,
			description,
		})),
		default: defaultOperation,
	};
}

/** Several IDs, picked from what `loadOptionsMethod` lists or given by an expression. */
export function idsPicker(
	displayName: string,
	name: string,
	loadOptionsMethod: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod },
		default: [],
		description: `${description}. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}

/** Interest levels 0 to 5: 0 named `zero`, the others by their stars. */
export const starOptions = (zero: string): INodePropertyOptions[] =>
	[0, 1, 2, 3, 4, 5].map((level) => ({
		name: level === 0 ? zero : `${level} Star${level > 1 ? 's' : ''}`,
		value: level,
	}));

/** The options of the resource's operation selector, its first parameter (`resourceModule`). */
export function operationOptions(resource: ResourceModule): INodePropertyOptions[] {
	return resource.description[0].options as INodePropertyOptions[];
}

// "Get Owners · Person": the names the panel shows, looked up by the saved values in one flat map,
// since n8n ends an expression at its first "}}".
export function nodeSubtitle(
	resourceProperty: INodeProperties,
	resources: Record<string, ResourceModule>,
): string {
	const names: Record<string, string> = {};
	for (const { name: resourceName, value } of resourceProperty.options as INodePropertyOptions[]) {
		const resource = String(value);
		for (const operation of operationOptions(resources[resource])) {
			names[`${resource}.${String(operation.value)}`] = `${operation.name} · ${resourceName}`;
		}
	}
	return `={{ ${JSON.stringify(names)}[$parameter["resource"] + "." + $parameter["operation"]] }}`;
}

// Sorted here, as n8n's lint wants a collection's options: it reads only literals.
export function filtersProperty(
	show: IDisplayOptions['show'],
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}
