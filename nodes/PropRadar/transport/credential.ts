import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { forget, perRun } from './run';

export const CREDENTIAL_TYPE = 'propRadarApi';

export type ApiContext =
	IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

export interface CredentialData {
	accessToken?: string;
	baseUrl?: string;
	spendingCeiling?: unknown;
	allowChargingAutomations?: boolean;
}

export interface Connection {
	baseUrl: string;
	/** As stored: money/ reads and checks it. */
	spendingCeiling: unknown;
	allowChargingAutomations: boolean;
}

export const normalizedBaseUrl = (credentials: CredentialData) =>
	String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/v1$/, '');

// Once per run (a node run, a trigger call): n8n loads and decrypts it on every read (docs/design.md).
export function readCredential(context: ApiContext): Promise<CredentialData> {
	return perRun(context, 'credential', () => {
		const read = context.getCredentials<CredentialData>(CREDENTIAL_TYPE);
		read.catch(() => forget(context, 'credential'));
		return read;
	});
}

// The read overlaps the run's parameter and item reads; a failure is left to the first request.
export function readCredentialAhead(context: ApiContext): void {
	readCredential(context).catch(() => undefined);
}

export async function getConnection(context: ApiContext): Promise<Connection> {
	const credentials = await readCredential(context);
	return {
		baseUrl: normalizedBaseUrl(credentials),
		spendingCeiling: credentials.spendingCeiling,
		allowChargingAutomations: credentials.allowChargingAutomations === true,
	};
}

/** For the trigger's `deliverySecret`. Never put in a message. */
export async function accessToken(context: ApiContext): Promise<string> {
	return String((await readCredential(context)).accessToken ?? '');
}
