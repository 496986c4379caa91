import type { RouteModule } from '../server';

export const automationRoutes: RouteModule = () => {};
