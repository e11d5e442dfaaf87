/**
 * The AsyncAPI 3.0 document of the realtime interfaces: WebSocket /v2/ws and the socket.io
 * namespace /v2 (docs/api.md "WebSocket"; docs/realtime.md), and the webhooks the service sends
 * (docs/webhooks.md; webhook-messages.ts). Payload schemas come from the zod schemas
 * (realtime-messages.ts, shared/webhooks/event-schema.ts); the rest states what api/realtime/ does:
 * correlation by `id`, refusals at the upgrade, close codes, acknowledgements and job pushes.
 */
import type { Config } from '../../shared/config.js';
import { realtimeMessageSchemas, type JsonSchema } from './realtime-messages.js';
import { SERVICE_VERSION } from './version.js';
import { WEBHOOK_CHANNEL, WEBHOOK_OPERATION, WEBHOOK_SERVER, webhookMessages } from './webhook-messages.js';

export const ASYNCAPI_VERSION = '3.0.0';

type Ref = { $ref: string };
const ref = ($ref: string): Ref => ({ $ref });

const ABC_HEX = '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7';

/** host[:port] as a Host header may carry it; anything else is not echoed into the document. */
const PLAIN_HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/** What the origin is read from: the document varies with them. */
export const ORIGIN_HEADERS = 'Host, X-Forwarded-Host, X-Forwarded-Proto';

export interface Origin {
  host: string;
  secure: boolean;
}

/**
 * Where clients connect: PUBLIC_URL when set, else the origin the request reached (as the OAuth
 * issuer, docs/decisions.md "Documentation"), else the node's own listener.
 */
export function realtimeOrigin(
  config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT' | 'TLS_CERT'>,
  reached?: { host: string | undefined; protocol: string },
): Origin {
  if (config.PUBLIC_URL !== undefined) {
    const url = new URL(config.PUBLIC_URL);
    return { host: url.host, secure: url.protocol === 'https:' };
  }
  if (reached?.host !== undefined && PLAIN_HOST.test(reached.host)) return { host: reached.host, secure: reached.protocol === 'https' };
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return { host: `${host.includes(':') ? `[${host}]` : host}:${config.PORT}`, secure: config.TLS_CERT !== undefined };
}

/** Close codes and handshake refusals of /v2/ws (api/realtime/websocket.ts, handshake.ts). */
export const WS_CLOSE_CODES = [
  { code: 1009, reason: 'a message larger than WS_MAX_MESSAGE_BYTES (1 MiB)' },
  { code: 1001, reason: 'the node is shutting down ("server shutting down"), after in-flight replies' },
  { code: 1006, reason: 'seen by the client when a peer that answered no ping for one interval (30 s) is terminated' },
] as const;

export const HANDSHAKE_REFUSALS = [
  { status: 400, code: 'INVALID_INPUT', when: 'a malformed upgrade request (method, Sec-WebSocket-Key or version)' },
  { status: 401, code: 'UNAUTHORIZED', when: 'no api_key, an unknown, revoked or malformed key, or two different keys' },
  { status: 401, code: 'EXPIRED_KEY', when: 'the key has expired' },
  { status: 403, code: 'FORBIDDEN', when: 'the key lacks the hash permission, or a client key without an allowed Origin' },
  { status: 404, code: 'NOT_FOUND', when: 'an upgrade to any other path' },
  { status: 429, code: 'TOO_MANY_CONNECTIONS', when: "the account already holds its plan's number of connections" },
  { status: 503, code: 'SERVICE_UNAVAILABLE', when: 'the node is shutting down, or connections cannot be counted (Redis)' },
] as const;

const BY_ID = { location: '$message.payload#/id', description: 'The request `id`, echoed in its reply; replies may arrive out of order.' };

function message(name: string, title: string, payload: JsonSchema, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, title, contentType: 'application/json', payload, ...extra };
}

let schemas: ReturnType<typeof realtimeMessageSchemas> | undefined;

function messages(): Record<string, unknown> {
  const s = (schemas ??= realtimeMessageSchemas());
  const reply = {
    id: '1',
    success: true,
    hash: ABC_HEX,
    algorithm: 'SHA-224',
    encoding: 'hex',
    timestamp: '2026-11-21T12:00:00.000Z',
    processing_time_ms: 0,
  };
  const invalid = { code: 'INVALID_INPUT', message: 'Message is not valid JSON', details: 'body: not JSON' };
  return {
    wsHashRequest: message('hash', 'Hash request', s.wsHashRequest!, {
      summary: 'Hash `data` (POST /v2/hash rules); any number may be in flight, up to WS_MAX_IN_FLIGHT (256) per connection.',
      correlationId: BY_ID,
      examples: [{ name: 'abc', payload: { action: 'hash', id: '1', data: 'abc', options: { encoding: 'utf8', output: 'hex' } } }],
    }),
    wsHashReply: message('hashResult', 'Hash result', s.wsHashReply!, {
      summary:
        'The contract\'s {id, success, hash, timestamp} (docs/api.md "WebSocket") plus the other POST /v2/hash fields, pushed when the job finishes.',
      correlationId: BY_ID,
      examples: [{ name: 'abc', payload: reply }],
    }),
    errorReply: message('error', 'Error reply', s.errorReply!, {
      summary:
        'The v2 error envelope with the request id; `id` is null when the message had no usable id (not JSON, not an object). The connection stays open.',
      correlationId: BY_ID,
      examples: [{ name: 'not JSON', payload: { id: null, success: false, error: invalid } }],
    }),
    socketHashRequest: message('hash', 'socket.io `hash` event', s.socketHashRequest!, {
      summary: 'The /v2/ws message; `action` and `id` may be left out (the event names the action, the acknowledgement correlates).',
      examples: [{ name: 'abc', payload: { id: 'r1', data: 'abc', options: { output: 'hex' } } }],
    }),
    socketHashReply: message('result', 'Hash result (acknowledgement, or `result` event)', s.socketHashReply!, {
      summary:
        'Sent as the acknowledgement of `hash`; emitted as a `result` event when the client asked for none. `id` is null when the request had none.',
      examples: [{ name: 'abc', payload: { ...reply, id: 'r1' } }],
    }),
    subscribeRequest: message('subscribe', 'socket.io `subscribe` event', s.subscribeRequest!, {
      summary:
        'A job id of an asynchronous request (202 from POST /v2/batch, /v2/file or /v2/stream with async=true), bare or as {job_id}.',
      examples: [{ name: 'object', payload: { job_id: 'job_0123456789abcdef' } }],
    }),
    subscribeAck: message('subscribed', 'Subscription acknowledgement', s.subscribeAck!, {
      summary: 'Acknowledges `subscribe` (emitted as `subscribed` without an acknowledgement callback); errors use the error reply.',
      examples: [{ name: 'queued', payload: { id: null, success: true, job_id: 'job_0123456789abcdef', status: 'queued' } }],
    }),
    jobEvent: message('job', 'socket.io `job` event', s.jobEvent!, {
      summary: 'Exactly one per subscription, when the job completes or fails: the GET /v2/jobs/{id} body.',
    }),
    connectError: message('connect_error', 'Connection refused', s.connectError!, {
      summary: 'A refused socket.io connection: `connect_error` whose `data` is the v2 error body (the upgrade refusals of /v2/ws).',
    }),
  };
}

function handshakeText(): string {
  const rows = HANDSHAKE_REFUSALS.map((r) => `| ${r.status} | \`${r.code}\` | ${r.when} |`).join('\n');
  return `The key is checked at the upgrade; a refused upgrade is an HTTP response with the v2 error body:\n\n| Status | error.code | When |\n|---|---|---|\n${rows}`;
}

/** The AsyncAPI 3.0 document for clients of `origin`. */
export function buildAsyncApiDocument({ host, secure }: Origin): Record<string, unknown> {
  const protocol = secure ? 'wss' : 'ws';
  const closeCodes = WS_CLOSE_CODES.map((c) => `${c.code}: ${c.reason}`).join('; ');
  const security = [ref('#/components/securitySchemes/apiKey')];
  const ws = (name: string): Ref => ref(`#/channels/webSocket/messages/${name}`);
  const io = (name: string): Ref => ref(`#/channels/socketIo/messages/${name}`);
  return {
    asyncapi: ASYNCAPI_VERSION,
    id: 'urn:sha224d:realtime:v2',
    info: {
      title: 'sha224d realtime API',
      version: SERVICE_VERSION,
      description:
        'SHA-224 over WebSocket (`/v2/ws`) and socket.io (namespace `/v2`), and the signed webhooks (Standard Webhooks 1.0) the service POSTs to registered endpoints (channel `webhooks`). Every realtime message counts against the v2 per-second rate and the daily quota like one HTTP request; a refusal answers with `RATE_LIMIT_EXCEEDED` and keeps the connection open. The HTTP API is described by /openapi.json.',
      externalDocs: { description: 'Realtime guide', url: `${secure ? 'https' : 'http'}://${host}/docs/guides/realtime` },
    },
    defaultContentType: 'application/json',
    servers: {
      webSocket: {
        host,
        protocol,
        title: 'WebSocket',
        description: 'The API port (plain WebSocket frames, one JSON object per frame).',
        security,
      },
      webhookReceiver: WEBHOOK_SERVER,
      socketIo: {
        host,
        protocol,
        pathname: '/socket.io',
        title: 'socket.io',
        description:
          'socket.io 4 (Engine.IO path /socket.io) on the API port; the key in `auth: {api_key}` or the api_key query parameter.',
        security,
      },
    },
    channels: {
      webSocket: {
        address: '/v2/ws',
        title: 'WebSocket /v2/ws',
        servers: [ref('#/servers/webSocket')],
        description: `${handshakeText()}\n\nClose codes: ${closeCodes}. Text and binary frames are both read as UTF-8 JSON.`,
        messages: {
          hashRequest: ref('#/components/messages/wsHashRequest'),
          hashReply: ref('#/components/messages/wsHashReply'),
          errorReply: ref('#/components/messages/errorReply'),
        },
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: { api_key: { type: 'string', description: 'An API key (s224_…)' } },
              required: ['api_key'],
            },
            bindingVersion: '0.1.0',
          },
        },
        'x-close-codes': WS_CLOSE_CODES,
        'x-handshake-refusals': HANDSHAKE_REFUSALS,
      },
      socketIo: {
        address: '/v2',
        title: 'socket.io namespace /v2',
        servers: [ref('#/servers/socketIo')],
        description:
          'Connect: the /v2/ws checks, except that a key needs `hash` or `jobs` (read-only keys may subscribe). The main namespace `/` refuses with NOT_FOUND. Event names are the message names.',
        messages: {
          hash: ref('#/components/messages/socketHashRequest'),
          result: ref('#/components/messages/socketHashReply'),
          subscribe: ref('#/components/messages/subscribeRequest'),
          subscribed: ref('#/components/messages/subscribeAck'),
          job: ref('#/components/messages/jobEvent'),
          error: ref('#/components/messages/errorReply'),
          connectError: ref('#/components/messages/connectError'),
        },
        'x-socketio': { path: '/socket.io', namespace: '/v2', auth: { api_key: 'an API key' } },
      },
      webhooks: WEBHOOK_CHANNEL,
    },
    operations: {
      hashOverWebSocket: {
        action: 'receive',
        channel: ref('#/channels/webSocket'),
        title: 'Hash a message',
        summary: 'One request per frame; the reply carries the same id.',
        messages: [ws('hashRequest')],
        reply: { channel: ref('#/channels/webSocket'), messages: [ws('hashReply'), ws('errorReply')] },
      },
      hashOverSocketIo: {
        action: 'receive',
        channel: ref('#/channels/socketIo'),
        title: 'socket.io `hash`',
        summary: 'Acknowledged with the result or an error reply; without an acknowledgement callback the answer is emitted as `result`.',
        messages: [io('hash')],
        reply: { channel: ref('#/channels/socketIo'), messages: [io('result'), io('error')] },
      },
      subscribeToJob: {
        action: 'receive',
        channel: ref('#/channels/socketIo'),
        title: 'socket.io `subscribe`',
        summary:
          'Needs the jobs permission; at most 1000 pending subscriptions per connection. NOT_FOUND for an unknown job or another account’s.',
        messages: [io('subscribe')],
        reply: { channel: ref('#/channels/socketIo'), messages: [io('subscribed'), io('error')] },
      },
      pushJob: {
        action: 'send',
        channel: ref('#/channels/socketIo'),
        title: 'socket.io `job`',
        summary: 'One event per subscription when the job completes or fails (at once if it had already finished).',
        messages: [io('job')],
      },
      refuseConnection: {
        action: 'send',
        channel: ref('#/channels/socketIo'),
        title: 'socket.io `connect_error`',
        messages: [io('connectError')],
      },
      deliverWebhook: WEBHOOK_OPERATION,
    },
    components: {
      messages: { ...messages(), ...webhookMessages() },
      securitySchemes: {
        apiKey: {
          type: 'httpApiKey',
          name: 'api_key',
          in: 'query',
          description: 'An API key; socket.io also takes it as `auth: {api_key}`.',
        },
      },
    },
  };
}
