/**
 * JSON Schemas of every realtime message (docs/api.md "WebSocket"; socket.io namespace /v2), made
 * from the zod schemas that validate and describe them (api/schemas/ws.ts, api/schemas/v2.ts) by
 * zod's own `z.toJSONSchema`, so the AsyncAPI document cannot drift from the code. What a client
 * sends is described as the validator's input (defaults optional); what the server sends as exact
 * output shapes (`additionalProperties: false`).
 */
import { z } from '../schemas/common.js';
import { AcceptedResponse, BatchResponse, ErrorResponse, FileResponse, StreamResponse } from '../schemas/v2.js';
import { SocketHashMessage, SubscribeMessage, WsErrorReply, WsHashMessage, WsHashReply } from '../schemas/ws.js';

export type JsonSchema = Record<string, unknown>;

/**
 * socket.io acknowledges `hash` with the /v2/ws reply; `id` is null when the event carried none
 * (docs/realtime.md "socket.io").
 */
const SocketHashReply = WsHashReply.extend({ id: z.string().nullable() });

/** The `subscribe` acknowledgement: `{id: null, success: true, job_id, status}` (api/realtime/job-pushes.ts). */
const SubscribeAck = z.object({ id: z.null(), success: z.literal(true), job_id: z.string(), status: AcceptedResponse.shape.status });

/**
 * The `job` event: exactly the GET /v2/jobs/{id} body of a finished job. Only batch, file and
 * stream requests can run asynchronously, so a completed job carries one of their bodies; a job
 * that expired while subscribed is reported as GET /v2/jobs/{id} would, NOT_FOUND without a status.
 */
const finished = { job_id: z.string(), status: z.literal('completed') };
const JobEvent = z.union([
  BatchResponse.extend(finished),
  FileResponse.extend(finished),
  StreamResponse.extend(finished),
  ErrorResponse.extend({ job_id: z.string(), status: z.literal('failed') }),
  ErrorResponse.extend({ job_id: z.string() }),
]);

/** `connect_error` data when a socket.io connection is refused: the v2 error body. */
const ConnectErrorData = ErrorResponse;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // draft-07 is the base of the AsyncAPI Schema Object (AsyncAPI 3.0 §Schema Object).
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'throw' }) as JsonSchema;
  return rest;
}

/** Message name → payload schema. Names are the AsyncAPI message keys. */
export function realtimeMessageSchemas(): Record<string, JsonSchema> {
  return {
    wsHashRequest: toSchema(WsHashMessage, 'input'),
    wsHashReply: toSchema(WsHashReply, 'output'),
    errorReply: toSchema(WsErrorReply, 'output'),
    socketHashRequest: toSchema(SocketHashMessage, 'input'),
    socketHashReply: toSchema(SocketHashReply, 'output'),
    subscribeRequest: toSchema(SubscribeMessage, 'input'),
    subscribeAck: toSchema(SubscribeAck, 'output'),
    jobEvent: toSchema(JobEvent, 'output'),
    connectError: toSchema(ConnectErrorData, 'output'),
  };
}
