/** The /v1 route table (docs/api.md "v1 Set A", "v1 Set B"): Set A's routes, then Set B's, in the OpenAPI document's order. */
import type { Route } from '../http/route-table.js';
import { CAMEL_CASE_ROUTES } from './camel-case-routes.js';
import { SNAKE_CASE_ROUTES } from './snake-case-routes.js';

export const V1_ROUTES: readonly Route[] = [...CAMEL_CASE_ROUTES, ...SNAKE_CASE_ROUTES];
