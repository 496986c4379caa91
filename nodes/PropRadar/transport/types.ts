import type { IDataObject } from 'n8n-workflow';

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

/** The service's error object (the lists document, "Error object"). */
export interface ApiErrorBody {
	error?: string;
	eventid?: string;
	message?: string;
	messageTitle?: string;
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
