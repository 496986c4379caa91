import type { ResourceModule } from './types';
import { account } from './account/Account.resource';
import { automation } from './automation/Automation.resource';
import { importRecord } from './importRecord/ImportRecord.resource';
import { list } from './list/List.resource';
import { listItem } from './listItem/ListItem.resource';
import { person } from './person/Person.resource';
import { property } from './property/Property.resource';
import { webhook } from './webhook/Webhook.resource';

export const resources: Record<string, ResourceModule> = {
	account,
	automation,
	importRecord,
	list,
	listItem,
	person,
	property,
	webhook,
};
