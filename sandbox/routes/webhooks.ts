import {
	PAGE_LIMITS,
	TRIGGER_EVENTS,
	WEBHOOK_FIELDS,
} from '../../nodes/PropRadar/shared/vocabulary';
import { badRequest, notFound } from '../errors';
import { pick, resolveFields } from '../fields';
import {
	auth,
	authBeforeBody,
	objectBody,
	onlyFields,
	onlyParams,
	paging,
	pathId,
	sortRecords,
	type Query,
} from '../http';
import { accountLists, idList } from '../lists/state';
import { webhooksState } from '../webhooks/registry';
import type { RouteModule } from '../types';

// Webhook routes answer 404 instead of 401 without a token (the lists document, Authentication 5), and need
// the integrations entitlement.
const hidden = { hideExistence: true, integrations: true };

const createSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['HookUrl', 'WebhookName'],
	properties: {
		HookUrl: { type: 'string', minLength: 1 },
		WebhookName: { type: 'string', minLength: 1 },
		Secret: { type: 'string' },
		Lists: { type: 'array', items: { type: 'integer' } },
	},
};

export const webhookRoutes: RouteModule = (app, ctx) => {
	app.post(
		'/v1/integrations/webhooks',
		{ schema: { body: createSchema }, ...authBeforeBody(hidden) },
		async (request) => {
			const account = auth(request, hidden);
			const body = request.body as {
				HookUrl: string;
				WebhookName: string;
				Secret?: string;
				Lists?: number[];
			};
			let url: URL;
			try {
				url = new URL(body.HookUrl);
			} catch {
				throw badRequest('Invalid HookUrl', 'HookUrl must be an absolute http or https URL');
			}
			if (!['http:', 'https:'].includes(url.protocol))
				throw badRequest('Invalid HookUrl', 'HookUrl must be an absolute http or https URL');
			const lists = accountLists(ctx, account);
			const unknown = (body.Lists ?? []).find((listId) => !lists[String(listId)]);
			if (unknown !== undefined)
				throw badRequest('Unknown list', `Lists: list ${unknown} does not exist`);
			const state = webhooksState(ctx);
			const WebhookID = state.nextWebhookId++;
			state.hooks[String(WebhookID)] = {
				WebhookID,
				HookUrl: body.HookUrl,
				WebhookName: body.WebhookName.slice(0, state.nameLimit),
				ClientName: 'API',
				Secret: body.Secret,
				accountId: account.id,
			};
			for (const listId of body.Lists ?? []) {
				const automation = lists[String(listId)].automation;
				automation.isEnabled = 1;
				if (!automation.Triggers) automation.Triggers = TRIGGER_EVENTS.newMatches;
				automation.ExportToWebhookIDs = [
					...idList(automation.ExportToWebhookIDs),
					String(WebhookID),
				].join(',');
			}
			ctx.store.save();
			return { results: [{ WebhookID }] };
		},
	);

	app.get('/v1/integrations/webhooks', async (request) => {
		const account = auth(request, hidden);
		const query = request.query as Query;
		onlyParams(query, ['Start', 'Limit', 'Sort', 'Dir', 'Fields']);
		const fields = resolveFields('webhook', query.Fields, WEBHOOK_FIELDS);
		const { start, limit } = paging(query, PAGE_LIMITS.webhooks);
		const hooks = Object.values(webhooksState(ctx).hooks)
			.filter((hook) => hook.accountId === account.id)
			.map(({ accountId, ...hook }) => {
				void accountId;
				return { ...hook, Secret: hook.Secret ?? '' } as Record<string, unknown>;
			});
		return {
			results: sortRecords(hooks, query, WEBHOOK_FIELDS)
				.slice(start, start + limit)
				.map((hook) => pick(hook, fields)),
		};
	});

	// A control route (no token): whether the service cuts webhook names, as it cuts ListName to 50 characters.
	app.put('/_sandbox/webhook-names', async (request) => {
		const body = objectBody(request.body);
		onlyFields(body, ['maxLength']);
		const { maxLength } = body;
		if (maxLength !== null && (!Number.isInteger(maxLength) || (maxLength as number) < 1))
			throw badRequest('Invalid maxLength', 'maxLength must be a whole number above 0, or null');
		const state = webhooksState(ctx);
		state.nameLimit = maxLength === null ? undefined : (maxLength as number);
		ctx.store.save();
		return { maxLength: state.nameLimit ?? null };
	});

	app.delete('/v1/integrations/webhooks/:webhookId', async (request) => {
		const account = auth(request, hidden);
		const webhookId = pathId((request.params as { webhookId: string }).webhookId);
		const state = webhooksState(ctx);
		const hook = state.hooks[String(webhookId)];
		if (!hook || hook.accountId !== account.id) throw notFound();
		delete state.hooks[String(webhookId)];
		for (const list of Object.values(accountLists(ctx, account))) {
			list.automation.ExportToWebhookIDs = idList(list.automation.ExportToWebhookIDs)
				.filter((id) => id !== String(webhookId))
				.join(',');
		}
		ctx.store.save();
		return { deleteCount: 1 };
	});
};
