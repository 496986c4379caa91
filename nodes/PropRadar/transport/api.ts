import type { IDataObject } from 'n8n-workflow';

import {
	keyProblem,
	keyText,
	parseNumberedId,
	PERSON_KEY_RULE,
	PROP_ID_RULE,
	shownValue,
	type NumberedId,
} from '../shared/ids';
import type { AutomationFields, ImportSource, ListType } from '../shared/vocabulary';

/** Every success body of the API (docs/api.md, "Envelope and encoding"). */
export interface ApiEnvelope<T = IDataObject> {
	results?: T[];
	/** Decimal string, e.g. "1.50": what the call charged, or would charge with Purchase=1. */
	totalCost?: string;
	resultCount?: number;
	totalResultCount?: number;
	/** Export credits left; previews (Purchase=0) only. */
	quantityFreeRemaining?: number;
	updateCount?: number;
	deleteCount?: number;
}

export interface ListRecord extends IDataObject {
	ListID: number;
	ListName: string;
	ListType?: ListType;
	isMonitored?: number;
	ImportSource?: ImportSource;
	TotalCount?: string;
}

/** The automation as the GET answers it: every automation field and the list's name (read-only). */
export interface AutomationRecord extends IDataObject, AutomationFields {
	Name?: string;
}

/** `PUT` replaces everything, and `Name` is read-only. */
export function writableAutomation(automation: AutomationRecord): Omit<AutomationRecord, 'Name'> {
	const writable: AutomationRecord = { ...automation };
	delete writable.Name;
	return writable;
}

export interface WebhookRecord extends IDataObject {
	WebhookID: number;
	HookUrl: string;
	WebhookName: string;
	ClientName?: string;
	Secret?: string;
}

export type QueryValue =
	string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type Query = Record<string, QueryValue>;

/** As the API reads it (docs/api.md): arrays comma-separated, booleans 1/0, empty values left out. */
export function encodeQuery(query: Query | undefined): Record<string, string> {
	const encoded: Record<string, string> = {};
	for (const [name, value] of Object.entries(query ?? {})) {
		if (value === undefined || value === null || value === '') continue;
		if (Array.isArray(value)) {
			if (value.length > 0) encoded[name] = value.join(',');
		} else if (typeof value === 'boolean') {
			encoded[name] = value ? '1' : '0';
		} else {
			encoded[name] = String(value);
		}
	}
	return encoded;
}

// The only place a URL path is built: every path ID is checked (shared/ids.ts) and encoded here.
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
			`${name}: "${shownValue(value)}" ${problem}; ${name === 'PropID' ? PROP_ID_RULE : PERSON_KEY_RULE}`,
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
