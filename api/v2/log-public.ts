/**
 * The transparency log's public, read-only documents (docs/proving.md): the latest checkpoint, the
 * C2SP tlog-tiles (`/log/tile/<L>/<N>[.p/<W>]`, `/log/tile/entries/<N>[.p/<W>]`), the log's verifier
 * key at `/.well-known/sha224d-log` and the TSA certificate at `/.well-known/sha224d-tsa.pem`. Not API
 * endpoints: no credentials, open to any origin, cacheable (full tiles never change).
 */
import { Router, type RequestHandler, type Response } from 'express';
import type { ApiDeps } from '../deps.js';
import { parseTilePath, TILE_WIDTH } from '../../shared/proof/tiles.js';
import { ServiceError } from '../../shared/errors.js';

export const LOG_PREFIX = '/log';
export const LOG_WELL_KNOWN = '/.well-known/sha224d-log';
export const TSA_CERT_WELL_KNOWN = '/.well-known/sha224d-tsa.pem';

/** Seconds a checkpoint may be cached: about the signing interval, so monitors see growth soon. */
const CHECKPOINT_MAX_AGE = 5;

function publicHeaders(res: Response, maxAge: number, immutable = false): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cache-Control', `public, max-age=${maxAge}${immutable ? ', immutable' : ''}`);
}

export function logPublicRouter(deps: Pick<ApiDeps, 'proof'>): RequestHandler {
  const router = Router();
  router.get(`${LOG_PREFIX}/checkpoint`, async (_req, res) => {
    const { log } = await deps.proof.get();
    const cp = await log.latest();
    publicHeaders(res, CHECKPOINT_MAX_AGE);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(cp.note);
  });
  router.get(`${LOG_PREFIX}/tile/{*rest}`, async (req, res) => {
    const rest = (req.params as { rest?: string[] }).rest?.join('/') ?? '';
    const ref = parseTilePath(rest);
    if (!ref) throw new ServiceError('NOT_FOUND', { message: 'No such tile' });
    const { log } = await deps.proof.get();
    const tile = await log.tile(ref);
    if (!tile) throw new ServiceError('NOT_FOUND', { message: 'No such tile (yet)' });
    // A full tile never changes; a partial one is replaced by wider ones as the log grows.
    publicHeaders(res, ref.width === TILE_WIDTH ? 31_536_000 : 60, ref.width === TILE_WIDTH);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Length', tile.length);
    res.end(tile);
  });
  router.get(LOG_WELL_KNOWN, async (_req, res) => {
    const { log } = await deps.proof.get();
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
  });
  router.get(TSA_CERT_WELL_KNOWN, async (_req, res) => {
    const { tsa } = await deps.proof.get();
    publicHeaders(res, 3600);
    res.setHeader('Content-Type', 'application/x-pem-file');
    res.end(tsa.certificatePem);
  });
  return router;
}
