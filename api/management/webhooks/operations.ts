/**
 * Webhook endpoints and deliveries in the dashboard's API (docs/webhooks.md "Management API").
 * Roles as for keys: every member reads; admins and owners manage. A signing secret is shown
 * once, when made (creation, rotation).
 */
import { ServiceError } from '../../../shared/errors.js';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../../../shared/store/kysely-webhooks.js';
import { deliveryFields, endpointFields } from '../../../shared/webhooks/views.js';
import { checkEndpointUrl } from '../../../shared/webhooks/endpoint-url.js';
import type { WebhookService } from '../../../shared/webhooks/service.js';
import { assertCan } from '../../sessions/policy.js';
import { OK, type Ok } from '../schemas/common.js';
import type { Actor, ManagementContext } from '../operations/context.js';
import type {
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryListQuery,
  WebhookDeliveryView,
  WebhookEndpointView,
} from './schemas.js';

export function endpointView(e: WebhookEndpointRecord): WebhookEndpointView {
  return endpointFields(e);
}

export function deliveryView(d: WebhookDeliveryRecord): WebhookDeliveryView {
  return deliveryFields(d);
}

function serviceOf(ctx: ManagementContext): WebhookService {
  if (ctx.webhooks === undefined)
    throw new ServiceError('SERVICE_UNAVAILABLE', { message: 'Webhooks are off on this deployment (SECRETS_KEY is not set)' });
  return ctx.webhooks;
}

async function ownEndpoint(service: WebhookService, actor: Actor, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await service.store.endpoint(id);
  if (endpoint === undefined || endpoint.accountId !== actor.account.id)
    throw new ServiceError('NOT_FOUND', { message: 'No such webhook endpoint' });
  return endpoint;
}

export async function listWebhookEndpointsOp(ctx: ManagementContext, actor: Actor) {
  assertCan(actor.role, 'webhooks.read');
  return { endpoints: (await serviceOf(ctx).store.endpoints(actor.account.id)).map(endpointView) };
}

export async function createWebhookEndpointOp(ctx: ManagementContext, actor: Actor, input: CreateWebhookEndpointRequest) {
  assertCan(actor.role, 'webhooks.manage');
  const service = serviceOf(ctx);
  const url = checkEndpointUrl(input.url, service.allowCidrs);
  const { endpoint, secret } = await service.createEndpoint({
    accountId: actor.account.id,
    url,
    description: input.description.trim(),
    eventTypes: input.eventTypes,
  });
  return { endpoint: endpointView(endpoint), secret };
}

export async function updateWebhookEndpointOp(ctx: ManagementContext, actor: Actor, id: string, input: UpdateWebhookEndpointRequest) {
  assertCan(actor.role, 'webhooks.manage');
  const service = serviceOf(ctx);
  await ownEndpoint(service, actor, id);
  const updated = await service.store.updateEndpoint(id, {
    ...(input.url === undefined ? {} : { url: checkEndpointUrl(input.url, service.allowCidrs) }),
    ...(input.description === undefined ? {} : { description: input.description.trim() }),
    ...(input.eventTypes === undefined ? {} : { eventTypes: input.eventTypes }),
    ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
  });
  if (updated === undefined) throw new ServiceError('NOT_FOUND', { message: 'No such webhook endpoint' });
  return endpointView(updated);
}

export async function deleteWebhookEndpointOp(ctx: ManagementContext, actor: Actor, id: string): Promise<Ok> {
  assertCan(actor.role, 'webhooks.manage');
  const service = serviceOf(ctx);
  await ownEndpoint(service, actor, id);
  await service.store.deleteEndpoint(id);
  return OK;
}

export async function rotateWebhookSecretOp(ctx: ManagementContext, actor: Actor, id: string) {
  assertCan(actor.role, 'webhooks.manage');
  const service = serviceOf(ctx);
  const { secret, previousExpiresAt } = await service.rotateSecret(await ownEndpoint(service, actor, id), ctx.now().getTime());
  return { secret, previousSecretExpiresAt: new Date(previousExpiresAt).toISOString() };
}

export async function testWebhookEndpointOp(ctx: ManagementContext, actor: Actor, id: string) {
  assertCan(actor.role, 'webhooks.manage');
  const service = serviceOf(ctx);
  const deliveryId = await service.sendTest(await ownEndpoint(service, actor, id));
  if (deliveryId === undefined) throw new ServiceError('INTERNAL_ERROR');
  return { deliveryId };
}

export async function listWebhookDeliveriesOp(ctx: ManagementContext, actor: Actor, query: WebhookDeliveryListQuery) {
  assertCan(actor.role, 'webhooks.read');
  const rows = await serviceOf(ctx).store.deliveries({
    accountId: actor.account.id,
    limit: query.limit,
    ...(query.endpointId === undefined ? {} : { endpointId: query.endpointId }),
    ...(query.status === undefined ? {} : { status: query.status }),
  });
  return { deliveries: rows.map(deliveryView) };
}

export async function replayWebhookDeliveryOp(ctx: ManagementContext, actor: Actor, id: string): Promise<Ok> {
  assertCan(actor.role, 'webhooks.manage');
  const service = serviceOf(ctx);
  const delivery = await service.store.delivery(id);
  if (delivery === undefined || delivery.accountId !== actor.account.id)
    throw new ServiceError('NOT_FOUND', { message: 'No such delivery' });
  await service.replay(delivery);
  return OK;
}
