import type { ResourceModule } from './types';
import { account } from './account/Account.resource';
import { list } from './list/List.resource';
import { listItem } from './listItem/ListItem.resource';
import { property } from './property/Property.resource';

/** Every resource of the node by its saved name. */
export const resources: Record<string, ResourceModule> = {
	account,
	list,
	listItem,
	property,
};
