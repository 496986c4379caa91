import type { RouteModule } from '../server';

export const listRoutes: RouteModule = () => {};
