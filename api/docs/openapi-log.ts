/**
 * The OpenAPI operations of the transparency log's public documents (api/log-routes.ts declares
 * them; docs/proving.md explains them): no credentials, errors in the v2 envelope, no rate window.
 */
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errorResponses, type Generation, type RouteDoc } from '../openapi-kit.js';
import { z } from '../schemas/common.js';

const LogKey = z
  .object({
    origin: z.string().openapi({ description: 'The log origin, the first line of every checkpoint' }),
    verifier_key: z.string().openapi({ description: 'C2SP note verifier key: `<name>+<hex key id>+<base64(0x01 ‖ Ed25519 public key)>`' }),
    public_key: z.string().openapi({ description: 'The Ed25519 public key, base64' }),
    algorithm: z.literal('Ed25519'),
    checkpoint: z.string(),
    tiles: z.string(),
    tsa_certificate: z.string(),
  })
  .openapi('LogKey');

const cached = (gen: Generation) => ({
  'X-Request-Id': gen.headers.requestId,
  'Cache-Control': { description: 'How long the answer may be cached', schema: { type: 'string' as const } },
});
const bytes = (gen: Generation, description: string, type: string): ResponseConfig => ({
  description,
  headers: cached(gen),
  content: { [type]: { schema: { type: 'string' } } },
});

export const LOG_DOCS = {
  checkpoint: {
    operationId: 'getLogCheckpoint',
    summary: "The log's latest checkpoint: a C2SP signed note (origin, tree size, root hash), cached 5 s",
    custom: (gen) => ({ responses: { 200: bytes(gen, 'The signed checkpoint', 'text/plain') } }),
  },
  tile: {
    operationId: 'getLogTile',
    summary: 'A C2SP tlog-tiles hash tile (`<L>/<N>[.p/<W>]`) or entry bundle (`entries/<N>[.p/<W>]`); full tiles are immutable',
    custom: (gen) => ({
      request: {
        params: z.object({
          tile: z.string().openapi({ description: 'The tile path below /log/tile/, slashes included', example: '0/000' }),
        }),
      },
      responses: { 200: bytes(gen, 'The tile', 'application/octet-stream'), ...errorResponses(gen, ['NOT_FOUND']) },
    }),
  },
  logKey: {
    operationId: 'getLogKey',
    summary: "The log's origin and public key, for verifying checkpoints and receipts offline",
    custom: (gen) => ({
      responses: { 200: { description: 'The log key', headers: cached(gen), content: { 'application/json': { schema: LogKey } } } },
    }),
  },
  tsaCertificate: {
    operationId: 'getTsaCertificate',
    summary: "The time-stamping authority's certificate (PEM), for `openssl ts -verify -CAfile`",
    custom: (gen) => ({ responses: { 200: bytes(gen, 'The certificate', 'application/x-pem-file') } }),
  },
} as const satisfies Record<string, RouteDoc>;
