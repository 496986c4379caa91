import type { RouteModule } from '../server';

export const propertyRoutes: RouteModule = () => {};
