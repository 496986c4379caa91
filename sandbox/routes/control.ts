import type { RouteModule } from '../server';

export const controlRoutes: RouteModule = () => {};
