import type { RouteModule } from '../server';

export const simulateRoutes: RouteModule = () => {};
