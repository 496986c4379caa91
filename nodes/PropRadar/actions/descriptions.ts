import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { propertyNamed, readChoice, readCollection, readSort } from '../shared/parameters';

// An operation's parameters, each shown for it (`show`) unless it says where it shows.
export const shownFor = (show: IDisplayOptions['show'], properties: INodeProperties[]) =>
	properties.map((property) =>
		property.displayOptions ? property : { ...property, displayOptions: { show } },
	);

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
export const starOptions = (zero: string) =>
	[0, 1, 2, 3, 4, 5].map((level) => ({
		name: level === 0 ? zero : `${level} Star${level > 1 ? 's' : ''}`,
		value: level,
	}));

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

/** The item's reads of its operation's own parameters, each checked against `description`. */
export const ownParameters = (
	context: IExecuteFunctions,
	itemIndex: number,
	description: INodeProperties[],
) => ({
	choice: <T extends string | number = string>(name: string) =>
		readChoice<T>(context, itemIndex, propertyNamed(description, name)),
	collection: (name: string) =>
		readCollection(context, itemIndex, propertyNamed(description, name)),
	sort: () => readSort(context, itemIndex, propertyNamed(description, 'sort')),
});
