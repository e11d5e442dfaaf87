/**
 * Schemas of proof of existence (docs/proving.md): receipts of the transparency log, consistency
 * proofs, and logging a digest on its own. The one source of validation and OpenAPI for them.
 */
import { hexDigest, timestamp, z } from './common.js';

const base64 = z.string().openapi({ format: 'byte' });

export const LogLeaf = z
  .object({
    digest: z.string().openapi({ description: 'SHA-224 of the data, lowercase hex' }),
    length: z.number().int().min(0).openapi({ description: 'Bytes hashed (0 when only a digest was logged)' }),
    source: z.enum(['data', 'file', 'stream', 'url', 'digest']),
    account: z.string().openapi({ description: "An opaque tag of the account (HMAC of its id under the log's key), never the id" }),
    time: timestamp,
  })
  .openapi('LogLeaf');

export const Receipt = z
  .object({
    id: z.string().openapi({ description: 'The receipt id, for GET /v2/receipts/{id} (the leaf index)' }),
    index: z.number().int().min(0),
    leaf: LogLeaf,
    leaf_base64: base64.openapi({ description: 'The exact leaf record the log hashed (SHA-256(0x00 ‖ leaf))' }),
    tree_size: z.number().int().min(1),
    root_hash: base64,
    inclusion_proof: z.array(base64),
    checkpoint: z.string().openapi({ description: 'The signed C2SP checkpoint (signed note) the proof leads to' }),
    tlog_proof: z.string().openapi({ description: 'The same as one C2SP tlog-proof@v1 text; its `extra` line is the leaf' }),
    log_key: z.string().openapi({ description: 'The log verifier key (<origin>+<key id>+<base64 key>)' }),
  })
  .openapi('Receipt');

export const ReceiptResponse = z.object({ success: z.literal(true), receipt: Receipt }).openapi('ReceiptResponse');

export const ReceiptParams = z.object({
  id: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/u)
    .openapi({ description: 'The receipt id of a logged digest' }),
});

export const LogDigestRequest = z
  .object({
    digest: hexDigest('digest'),
    length: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().openapi({ description: 'Bytes of the data, if known' }),
  })
  .openapi('LogDigestRequest');

const size = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const ConsistencyQuery = z.object({
  from: size.openapi({ description: 'The older tree size' }),
  to: size.optional().openapi({ description: 'The newer tree size (default: the latest checkpoint)' }),
});

export const ConsistencyResponse = z
  .object({
    success: z.literal(true),
    from: z.number().int(),
    to: z.number().int(),
    proof: z.array(base64),
    from_checkpoint: z.string(),
    to_checkpoint: z.string(),
  })
  .openapi('ConsistencyResponse');
