import {
	keyProblem,
	keyText,
	parseNumberedId,
	PERSON_KEY_RULE,
	PROP_ID_RULE,
	shownValue,
	type NumberedId,
} from '../shared/ids';

// The only place a URL path is built: every path ID is checked (shared/ids.ts) and encoded here, so
// none goes out that cannot be one, whichever operation built it.
export type ApiPath = string & { readonly __apiPath: unique symbol };

const path = (value: string) => value as ApiPath;

function id(name: string, value: NumberedId): string {
	const parsed = parseNumberedId(value, `a ${name}`);
	if ('problem' in parsed) throw new Error(`${name}: "${shownValue(value)}" ${parsed.problem}`);
	return String(parsed.id);
}

function oneOf<T extends string>(name: string, value: T, allowed: readonly T[]): T {
	if (!allowed.includes(value))
		throw new Error(`${name}: "${shownValue(value)}" is not one of ${allowed.join(', ')}`);
	return value;
}

function key(name: 'PropID' | 'PersonKey', value: string): string {
	const text = keyText(value);
	const problem = text === undefined ? 'is not text' : keyProblem(text);
	if (problem)
		throw new Error(
			`${name}: "${shownValue(value)}" ${problem}; ` +
				`${name === 'PropID' ? PROP_ID_RULE : PERSON_KEY_RULE}`,
		);
	return encodeURIComponent(text!);
}

export type PersonRecordPathKind = 'bankruptcies' | 'divorces' | 'liens' | 'probates' | 'relatives';

export const paths = {
	lists: () => path('/v1/lists'),
	list: (listId: NumberedId) => path(`/v1/lists/${id('ListID', listId)}`),
	listItems: (listId: NumberedId) => path(`/v1/lists/${id('ListID', listId)}/items`),
	listItem: (listId: NumberedId, propId: string) =>
		path(`/v1/lists/${id('ListID', listId)}/items/${key('PropID', propId)}`),
	importItems: (listId: NumberedId) => path(`/v1/lists/${id('ListID', listId)}/import/items`),
	importItem: (listId: NumberedId, itemId: NumberedId) =>
		path(`/v1/lists/${id('ListID', listId)}/import/items/${id('ListImportItemID', itemId)}`),
	automation: (listId: NumberedId) => path(`/v1/lists/${id('ListID', listId)}/automations`),
	properties: () => path('/v1/properties'),
	property: (propId: string) => path(`/v1/properties/${key('PropID', propId)}`),
	propertyEvictions: (propId: string) => path(`/v1/properties/${key('PropID', propId)}/evictions`),
	propertyComps: (propId: string, kind: 'sales' | 'forsale') =>
		path(
			`/v1/properties/${key('PropID', propId)}/comps/${oneOf('Comparables', kind, ['sales', 'forsale'])}`,
		),
	propertyParcels: (propId: string) => path(`/v1/properties/${key('PropID', propId)}/parcels`),
	propertyTransactions: (propId: string) =>
		path(`/v1/properties/${key('PropID', propId)}/transactions`),
	propertyPersons: (propId: string) => path(`/v1/properties/${key('PropID', propId)}/persons`),
	personRecords: (personKey: string, kind: PersonRecordPathKind) =>
		path(
			`/v1/persons/${key('PersonKey', personKey)}/${oneOf('Records', kind, ['bankruptcies', 'divorces', 'liens', 'probates', 'relatives'])}`,
		),
	personPhone: (personKey: string) => path(`/v1/persons/${key('PersonKey', personKey)}/Phone`),
	personEmail: (personKey: string) => path(`/v1/persons/${key('PersonKey', personKey)}/Email`),
	webhooks: () => path('/v1/integrations/webhooks'),
	webhook: (webhookId: NumberedId) =>
		path(`/v1/integrations/webhooks/${id('WebhookID', webhookId)}`),
	members: () => path('/v1/accounts/members'),
	statusLabels: () => path('/v1/accounts/preferences/statuses'),
};
