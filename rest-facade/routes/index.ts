import type { RouteDefinition } from '../route.js';
import { libraryRoutes } from './library.js';
import { operationsRoutes } from './operations.js';
import { researchRoutes } from './research.js';

/** Every documented REST path, served by the one handler. */
export const ROUTES: readonly RouteDefinition[] = [...libraryRoutes, ...researchRoutes, ...operationsRoutes];
