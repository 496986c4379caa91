import type { IExecuteFunctions, IHookFunctions, ILoadOptionsFunctions, IWebhookFunctions } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'propRadarApi';

/** Every n8n context a PropRadar request is made from. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export interface CredentialData {
	accessToken?: string;
	baseUrl?: string;
	spendingCeiling?: unknown;
	allowChargingAutomations?: boolean;
}

export interface Connection {
	baseUrl: string;
	/** The credential's Spending Ceiling per Execution as stored (read and checked by the charges). */
	spendingCeiling: unknown;
	/** Whether the credential's owner lets workflows set up automations that buy. */
	allowChargingAutomations: boolean;
}

export const normalizedBaseUrl = (credentials: CredentialData) => String(credentials.baseUrl ?? '').trim().replace(/\/+$/, '').replace(/\/v1$/, '');

const credentialReads = new WeakMap<ApiContext, Promise<CredentialData>>();

/**
 * The credential, read once per context (one node run, one trigger call): n8n loads it from its
 * database and decrypts it on every `getCredentials`, and `httpRequestWithAuthentication` would do
 * so again for every request unless it is handed the decrypted data.
 */
export function readCredential(context: ApiContext): Promise<CredentialData> {
	let read = credentialReads.get(context);
	if (!read) {
		read = context.getCredentials<CredentialData>(CREDENTIAL_TYPE);
		credentialReads.set(context, read);
		read.catch(() => credentialReads.delete(context));
	}
	return read;
}

/**
 * Starts reading the credential now, without waiting for it, so that n8n's database read runs
 * while the run reads its parameters and items; the run's first request then finds it read. A
 * failure is left to that request to report.
 */
export function readCredentialAhead(context: ApiContext): void {
	readCredential(context).catch(() => undefined);
}

/** The base URL (trailing `/` and `/v1` dropped) and the money settings of the credential. */
export async function getConnection(context: ApiContext): Promise<Connection> {
	const credentials = await readCredential(context);
	return {
		baseUrl: normalizedBaseUrl(credentials),
		spendingCeiling: credentials.spendingCeiling,
		allowChargingAutomations: credentials.allowChargingAutomations === true,
	};
}

/**
 * The credential's access token, read as every request reads it: for what the trigger derives from
 * it (the secret its deliveries carry, see the trigger's `deliverySecret`). Never put in a message.
 */
export async function accessToken(context: ApiContext): Promise<string> {
	return String((await readCredential(context)).accessToken ?? '');
}
