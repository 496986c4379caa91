import { badRequest } from '../errors';
import { auth, authBeforeBody, objectBody, pathId } from '../http';
import { validateAutomation } from '../lists/automations';
import { recompute } from '../lists/membership';
import { getList } from '../lists/state';
import type { RouteModule } from '../types';

export const automationRoutes: RouteModule = (app, ctx) => {
	app.get('/v1/lists/:listId/automations', async (request) => {
		const account = auth(request);
		const list = getList(ctx, account, pathId((request.params as { listId: string }).listId));
		return { results: [{ Name: list.ListName, ...list.automation }] };
	});

	app.put('/v1/lists/:listId/automations', authBeforeBody(), async (request) => {
		const account = auth(request);
		const list = getList(ctx, account, pathId((request.params as { listId: string }).listId));
		const body = objectBody(request.body);
		if (Object.keys(body).length === 0)
			throw badRequest('Empty automation', 'Send the whole automation configuration');
		list.automation = validateAutomation(list.ListID, body);
		if (list.automation.isEnabled && list.ListType === 'dynamic' && list.isMonitored)
			recompute(ctx, account, list);
		ctx.store.save();
		return { updateCount: 1 };
	});
};
