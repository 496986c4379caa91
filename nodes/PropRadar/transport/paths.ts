/**
 * The typed paths of the API. An operation names an endpoint through these builders and never
 * concatenates a URL itself; every path parameter is encoded here.
 */
export type ApiPath = string & { readonly __apiPath: unique symbol };

const path = (value: string) => value as ApiPath;
const seg = (value: string | number) => encodeURIComponent(String(value));

export type PersonRecordPathKind = 'bankruptcies' | 'divorces' | 'liens' | 'probates' | 'relatives';

export const paths = {
	lists: () => path('/v1/lists'),
	list: (listId: number) => path(`/v1/lists/${seg(listId)}`),
	listItems: (listId: number) => path(`/v1/lists/${seg(listId)}/items`),
	listItem: (listId: number, propId: string) => path(`/v1/lists/${seg(listId)}/items/${seg(propId)}`),
	importItems: (listId: number) => path(`/v1/lists/${seg(listId)}/import/items`),
	importItem: (listId: number, itemId: number) => path(`/v1/lists/${seg(listId)}/import/items/${seg(itemId)}`),
	automation: (listId: number) => path(`/v1/lists/${seg(listId)}/automations`),
	properties: () => path('/v1/properties'),
	property: (propId: string) => path(`/v1/properties/${seg(propId)}`),
	propertyEvictions: (propId: string) => path(`/v1/properties/${seg(propId)}/evictions`),
	propertyComps: (propId: string, kind: 'sales' | 'forsale') => path(`/v1/properties/${seg(propId)}/comps/${kind}`),
	propertyParcels: (propId: string) => path(`/v1/properties/${seg(propId)}/parcels`),
	propertyTransactions: (propId: string) => path(`/v1/properties/${seg(propId)}/transactions`),
	propertyPersons: (propId: string) => path(`/v1/properties/${seg(propId)}/persons`),
	personRecords: (personKey: string, kind: PersonRecordPathKind) => path(`/v1/persons/${seg(personKey)}/${kind}`),
	personPhone: (personKey: string) => path(`/v1/persons/${seg(personKey)}/Phone`),
	personEmail: (personKey: string) => path(`/v1/persons/${seg(personKey)}/Email`),
	webhooks: () => path('/v1/integrations/webhooks'),
	webhook: (webhookId: number) => path(`/v1/integrations/webhooks/${seg(webhookId)}`),
	members: () => path('/v1/accounts/members'),
	statusLabels: () => path('/v1/accounts/preferences/statuses'),
};
