import type { RouteModule } from '../server';

export const listItemRoutes: RouteModule = () => {};
