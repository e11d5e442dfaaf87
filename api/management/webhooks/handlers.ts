/** Which operation answers each webhook route (spread into HANDLERS in ../table.ts). */
import type { CallInput, Handler, Outcome } from '../handler.js';
import {
  createWebhookEndpointOp,
  deleteWebhookEndpointOp,
  listWebhookDeliveriesOp,
  listWebhookEndpointsOp,
  replayWebhookDeliveryOp,
  rotateWebhookSecretOp,
  testWebhookEndpointOp,
  updateWebhookEndpointOp,
} from './operations.js';
import type { WEBHOOK_ROUTES } from './routes.js';
import type { CreateWebhookEndpointRequest, UpdateWebhookEndpointRequest, WebhookDeliveryListQuery } from './schemas.js';

const json = async (p: Promise<unknown>): Promise<Outcome> => ({ body: await p });
const param = (input: CallInput, name: string): string => input.params[name] ?? '';
const account = (run: Extract<Handler, { auth: 'account' }>['run']): Handler => ({ auth: 'account', run });

export const WEBHOOK_HANDLERS: Record<keyof typeof WEBHOOK_ROUTES, Handler> = {
  listWebhookEndpoints: account((ctx, actor) => json(listWebhookEndpointsOp(ctx, actor))),
  createWebhookEndpoint: account((ctx, actor, i) => json(createWebhookEndpointOp(ctx, actor, i.body as CreateWebhookEndpointRequest))),
  updateWebhookEndpoint: account((ctx, actor, i) =>
    json(updateWebhookEndpointOp(ctx, actor, param(i, 'endpointId'), i.body as UpdateWebhookEndpointRequest)),
  ),
  deleteWebhookEndpoint: account((ctx, actor, i) => json(deleteWebhookEndpointOp(ctx, actor, param(i, 'endpointId')))),
  rotateWebhookSecret: account((ctx, actor, i) => json(rotateWebhookSecretOp(ctx, actor, param(i, 'endpointId')))),
  testWebhookEndpoint: account((ctx, actor, i) => json(testWebhookEndpointOp(ctx, actor, param(i, 'endpointId')))),
  listWebhookDeliveries: account((ctx, actor, i) => json(listWebhookDeliveriesOp(ctx, actor, i.query as WebhookDeliveryListQuery))),
  replayWebhookDelivery: account((ctx, actor, i) => json(replayWebhookDeliveryOp(ctx, actor, param(i, 'deliveryId')))),
};
