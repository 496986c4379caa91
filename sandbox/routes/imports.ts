import type { RouteModule } from '../server';

export const importRoutes: RouteModule = () => {};
