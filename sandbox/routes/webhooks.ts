import type { RouteModule } from '../server';

export const webhookRoutes: RouteModule = () => {};
