/** Contract entries of the webhook routes (spread into MANAGEMENT_CONTRACT in ../contract.ts). */
import { AccountParams, Ok } from '../schemas/common.js';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointRequest,
  RotatedWebhookSecretResponse,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryListQuery,
  WebhookDeliveryListResponse,
  WebhookDeliveryParams,
  WebhookEndpointListResponse,
  WebhookEndpointParams,
  WebhookEndpointView,
  WebhookTestResponse,
} from './schemas.js';

export const WEBHOOK_CONTRACT = {
  listWebhookEndpoints: {
    auth: 'account',
    params: AccountParams,
    summary: "The account's webhook endpoints",
    response: WebhookEndpointListResponse,
  },
  createWebhookEndpoint: {
    auth: 'account',
    params: AccountParams,
    body: CreateWebhookEndpointRequest,
    summary: 'Add a webhook endpoint; its signing secret is shown once',
    response: CreatedWebhookEndpointResponse,
  },
  updateWebhookEndpoint: {
    auth: 'account',
    params: WebhookEndpointParams,
    body: UpdateWebhookEndpointRequest,
    summary: "Change an endpoint's URL, description or filter, or enable or disable it",
    response: WebhookEndpointView,
  },
  deleteWebhookEndpoint: { auth: 'account', params: WebhookEndpointParams, summary: 'Delete an endpoint and its deliveries', response: Ok },
  rotateWebhookSecret: {
    auth: 'account',
    params: WebhookEndpointParams,
    summary: 'A new signing secret; the old one keeps signing beside it for the overlap',
    response: RotatedWebhookSecretResponse,
  },
  testWebhookEndpoint: {
    auth: 'account',
    params: WebhookEndpointParams,
    summary: 'Send a webhook.test event (one attempt, not counted as a failure)',
    response: WebhookTestResponse,
  },
  listWebhookDeliveries: {
    auth: 'account',
    params: AccountParams,
    query: WebhookDeliveryListQuery,
    summary: 'Recent deliveries, newest first',
    response: WebhookDeliveryListResponse,
  },
  replayWebhookDelivery: {
    auth: 'account',
    params: WebhookDeliveryParams,
    summary: 'Send a delivery again, with the same webhook-id and payload',
    response: Ok,
  },
} as const;
