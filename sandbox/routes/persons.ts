import type { RouteModule } from '../server';

export const personRoutes: RouteModule = () => {};
