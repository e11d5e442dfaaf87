/**
 * The transparency log's public, read-only documents (docs/proving.md), in the one route shape
 * (api/http/route-table.ts): the latest checkpoint, the C2SP tlog-tiles (`/log/tile/<L>/<N>[.p/<W>]`,
 * `/log/tile/entries/<N>[.p/<W>]`), the log's verifier key at `/.well-known/sha224d-log` and the TSA
 * certificate at `/.well-known/sha224d-tsa.pem`. Like the probes and documents, not API endpoints:
 * no credentials, open to any origin, cacheable (full tiles never change).
 */
import type { Response } from 'express';
import { ServiceError } from '../shared/errors.js';
import { parseTilePath, TILE_WIDTH } from '../shared/proof/tiles.js';
import { LOG_DOCS } from './docs/openapi-log.js';
import type { Route } from './http/route-table.js';
import type { ServiceContext, ServicePermission } from './service-routes.js';

export const LOG_PREFIX = '/log';
export const LOG_WELL_KNOWN = '/.well-known/sha224d-log';
export const TSA_CERT_WELL_KNOWN = '/.well-known/sha224d-tsa.pem';

/** Seconds a checkpoint may be cached: about the signing interval, so monitors see growth soon. */
const CHECKPOINT_MAX_AGE = 5;
/** A full tile never changes: cached for a year. */
const FULL_TILE_MAX_AGE = 31_536_000;

function publicHeaders(res: Response, maxAge: number, immutable = false): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cache-Control', `public, max-age=${maxAge}${immutable ? ', immutable' : ''}`);
}

export const LOG_PUBLIC_ROUTES: ReadonlyArray<Route<ServicePermission, ServiceContext>> = [
  {
    method: 'get',
    path: `${LOG_PREFIX}/checkpoint`,
    permission: 'public',
    handle: async (ctx, _req, res) => {
      const { log } = await ctx.deps.proof.get();
      const cp = await log.latest();
      publicHeaders(res, CHECKPOINT_MAX_AGE);
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(cp.note);
    },
    doc: LOG_DOCS.checkpoint,
  },
  {
    method: 'get',
    path: `${LOG_PREFIX}/tile/*tile`,
    permission: 'public',
    handle: async (ctx, req, res) => {
      const ref = parseTilePath((req.params as { tile?: string[] }).tile?.join('/') ?? '');
      if (!ref) throw new ServiceError('NOT_FOUND', { message: 'No such tile' });
      const { log } = await ctx.deps.proof.get();
      const tile = await log.tile(ref);
      if (!tile) throw new ServiceError('NOT_FOUND', { message: 'No such tile (yet)' });
      // A partial tile is replaced by wider ones as the log grows.
      const full = ref.width === TILE_WIDTH;
      publicHeaders(res, full ? FULL_TILE_MAX_AGE : 60, full);
      res.setHeader('Content-Type', 'application/octet-stream');
      res.setHeader('Content-Length', tile.length);
      res.end(tile);
    },
    doc: LOG_DOCS.tile,
  },
  {
    method: 'get',
    path: LOG_WELL_KNOWN,
    permission: 'public',
    handle: async (ctx, _req, res) => {
      const { log } = await ctx.deps.proof.get();
      publicHeaders(res, 3600);
      res.json({
        origin: log.origin,
        verifier_key: log.key.verifierKey,
        public_key: log.key.publicKey.toString('base64'),
        algorithm: 'Ed25519',
        checkpoint: `${LOG_PREFIX}/checkpoint`,
        tiles: `${LOG_PREFIX}/tile/`,
        tsa_certificate: TSA_CERT_WELL_KNOWN,
      });
    },
    doc: LOG_DOCS.logKey,
  },
  {
    method: 'get',
    path: TSA_CERT_WELL_KNOWN,
    permission: 'public',
    handle: async (ctx, _req, res) => {
      const { tsa } = await ctx.deps.proof.get();
      publicHeaders(res, 3600);
      res.setHeader('Content-Type', 'application/x-pem-file');
      res.end(tsa.certificatePem);
    },
    doc: LOG_DOCS.tsaCertificate,
  },
];
