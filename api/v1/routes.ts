/** The /v1 route table (SPEC "v1 Set A", "v1 Set B"): Set A's routes, then Set B's, in the OpenAPI document's order. */
import type { Route } from '../http/route-table.js';
import { SET_A_ROUTES } from './camel-case-routes.js';
import { SET_B_ROUTES } from './snake-case-routes.js';

export const V1_ROUTES: readonly Route[] = [...SET_A_ROUTES, ...SET_B_ROUTES];
