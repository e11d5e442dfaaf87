/**
 * Messages of the realtime interfaces (docs/api.md "WebSocket"; socket.io namespace /v2): the one
 * source of their validation. Field rules are those of POST /v2/hash (api/schemas/v2.ts).
 */
import { checkEncoded, inputEncoding, outputFormat, requiredString, z } from './common.js';

/** Client-chosen request ids are echoed back; bounded like batch item ids. */
export const MAX_REQUEST_ID_LENGTH = 256;

export const RequestId = requiredString('id')
  .min(1, { message: 'id must not be empty' })
  .max(MAX_REQUEST_ID_LENGTH, { message: `id must be at most ${MAX_REQUEST_ID_LENGTH} characters` });

export const HashOptions = z
  .object(
    { encoding: inputEncoding('options.encoding'), output: outputFormat('options.output') },
    { error: () => 'options must be an object' },
  )
  .default({ encoding: 'utf8', output: 'hex' });

/** The only action of /v2/ws (docs/api.md "WebSocket": `action` is "hash"). */
export const WS_ACTIONS = ['hash'] as const;

const HashMessageFields = {
  action: z.literal('hash'),
  id: RequestId,
  data: requiredString('data'),
  options: HashOptions,
};

/** The message once checked: its id, the input known to decode (api/schemas/common.ts) and the output format. */
function checked<M extends { id?: string | undefined; data: string; options: z.output<typeof HashOptions> }>(
  message: M,
  ctx: z.RefinementCtx,
) {
  const input = checkEncoded(ctx, message.data, message.options.encoding, ['data']);
  return input ? { id: message.id, input, output: message.options.output } : z.NEVER;
}

/** `{action:"hash", id, data, options:{encoding, output}}` */
export const WsHashMessage = z.object(HashMessageFields).transform(checked);
export type WsHashMessage = z.output<typeof WsHashMessage>;

/**
 * socket.io `hash` event payload: the same message; `action` may be left out (the event names it)
 * and so may `id` (the acknowledgement correlates).
 */
export const SocketHashMessage = z
  .object({ ...HashMessageFields, action: z.literal('hash').optional(), id: RequestId.optional() })
  .transform(checked);

/** socket.io `subscribe` payload: a job id, bare or as `{job_id}`. */
export const SubscribeMessage = z
  .union([z.string(), z.object({ job_id: z.string() }).transform((v) => v.job_id)], {
    error: () => 'subscribe takes a job id string or {job_id}',
  })
  .pipe(z.string().min(1, { message: 'job_id must not be empty' }).max(100, { message: 'job_id must be at most 100 characters' }));

/** Server → client, success: the {id, success, hash, timestamp} of docs/api.md "WebSocket" plus the /v2/hash fields. */
export const WsHashReply = z.object({
  id: z.string(),
  success: z.literal(true),
  hash: z.string(),
  algorithm: z.literal('SHA-224'),
  encoding: z.string(),
  timestamp: z.string(),
  processing_time_ms: z.number().int(),
});

/** Server → client, failure: the v2 error envelope plus the request id (null when unknown). */
export const WsErrorReply = z.object({
  id: z.string().nullable(),
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string(), details: z.string(), retry_after: z.number().int().optional() }),
});
