import type { SandboxContext } from '../types';

/** The webhook registry of every account (docs/api.md "Webhooks"). */
export interface StoredWebhook {
	WebhookID: number;
	HookUrl: string;
	WebhookName: string;
	ClientName: string;
	Secret?: string;
	accountId: string;
}

export interface WebhooksState {
	nextWebhookId: number;
	hooks: Record<string, StoredWebhook>;
	/** Set by `PUT /_sandbox/webhook-names`: names are stored cut to this many characters, as a service may. */
	nameLimit?: number;
}

export function webhooksState(ctx: SandboxContext): WebhooksState {
	return ctx.store.slice<WebhooksState>('webhooks', () => ({ nextWebhookId: 1, hooks: {} }));
}
