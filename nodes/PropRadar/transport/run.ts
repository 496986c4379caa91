import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

// What the transport keeps for one node run (its credential read, its requests in flight), keyed by
// the run's context: n8n gives every run of a node a context of its own (issue 58, step 4).
const inFlights = new WeakMap<object, InFlight>();
const credentialReads = new WeakMap<object, Promise<CredentialData>>();

/** The most requests one node run has under way at once (docs/performance.md, "Requests in flight"). */
export const MAX_IN_FLIGHT = 50;

/** A counter of free places; a request waiting for one stops waiting when the execution stops. */
export class InFlight {
	private free = MAX_IN_FLIGHT;
	private readonly waiting = new Set<() => void>();

	/** True once a place is taken; false when the execution was stopped first. */
	async enter(stop: AbortSignal | undefined): Promise<boolean> {
		if (stop?.aborted) return false;
		if (this.free > 0) {
			this.free--;
			return true;
		}
		return await new Promise<boolean>((resolve) => {
			const onStop = () => {
				this.waiting.delete(turn);
				resolve(false);
			};
			const turn = () => {
				stop?.removeEventListener('abort', onStop);
				resolve(true);
			};
			this.waiting.add(turn);
			stop?.addEventListener('abort', onStop, { once: true });
		});
	}

	leave(): void {
		const [next] = this.waiting;
		if (!next) this.free++;
		else {
			this.waiting.delete(next);
			next();
		}
	}
}

export function inFlight(context: object): InFlight {
	if (!inFlights.has(context)) inFlights.set(context, new InFlight());
	return inFlights.get(context)!;
}

export const CREDENTIAL_TYPE = 'propRadarApi';

export type ApiContext =
	IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

export interface CredentialData {
	accessToken?: string;
	baseUrl?: string;
	spendingCeiling?: unknown;
	allowChargingAutomations?: boolean;
}

export const normalizedBaseUrl = (credentials: CredentialData) =>
	String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/v1$/, '');

// Once per run (a node run, a trigger call): n8n loads and decrypts it on every read (docs/design.md).
export function readCredential(context: ApiContext): Promise<CredentialData> {
	let read = credentialReads.get(context);
	if (!read) {
		read = context.getCredentials<CredentialData>(CREDENTIAL_TYPE);
		credentialReads.set(context, read);
		read.catch(() => credentialReads.delete(context));
	}
	return read;
}

// The read overlaps the run's parameter and item reads; a failure is left to the first request.
export function readCredentialAhead(context: ApiContext): void {
	readCredential(context).catch(() => undefined);
}

/** The credential as money/ reads it: the ceiling as stored, checked there. */
export async function getConnection(context: ApiContext) {
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
