import type { RouteModule } from '../server';

export const accountRoutes: RouteModule = () => {};
