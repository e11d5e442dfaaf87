/**
 * API key service: create (the secret is returned once; only its hash is stored), authenticate,
 * revoke. State kept per store (positive cache, last-used throttle) lives in a WeakMap keyed by the
 * store, so two stores in one process (tests, SQLite + PostgreSQL) never share entries.
 *
 * Cross-node staleness: the cache is per process. A key revoked (or an account re-planned) through
 * another process is still accepted here, with the old plan, for at most CACHE_TTL_MS after this
 * process last read it from the database. Revocation through `revokeApiKey` in this process takes
 * effect at once.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import { ERROR_CATALOG, invalidInput, ServiceError } from '../errors.js';
import { SharedCalls } from '../shared-calls.js';
import { type AccountStore, type ApiKeyRecord, KEY_TYPES, type NewApiKey } from '../store/types.js';
import { normalizeAllowedDomains } from './domains.js';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './format.js';

export const CACHE_TTL_MS = 5_000;
export const CACHE_MAX_ENTRIES = 10_000;
/** last_used_at is written at most this often per key and process. */
export const TOUCH_INTERVAL_MS = 60_000;
const MAX_DESCRIPTION_LENGTH = 200;

interface CacheEntry {
  principal: Principal;
  expiresAtMs: number | null;
  cachedAtMs: number;
}

interface KeyState {
  /** key hash → principal of an active key. */
  cache: Map<string, CacheEntry>;
  /** key id → when this process last wrote last_used_at. */
  touched: Map<string, number>;
  /** Bumped by every revocation, so a lookup that raced one does not cache its stale answer. */
  generation: number;
  /**
   * key hash → the store lookup under way for it. A burst of requests with one uncached key (a
   * client's first second, or every 5 s as the cache lapses) shares one query instead of queueing
   * hundreds for the pool, which would refuse them with 503 once its wait bound passed.
   */
  lookups: SharedCalls<Awaited<ReturnType<AccountStore['findKeyByHash']>>>;
}

const states = new WeakMap<AccountStore, KeyState>();

function stateOf(store: AccountStore): KeyState {
  let state = states.get(store);
  if (!state) {
    state = { cache: new Map(), touched: new Map(), generation: 0, lookups: new SharedCalls() };
    states.set(store, state);
  }
  return state;
}

export interface CreatedApiKey {
  record: ApiKeyRecord;
  /** The full key. Shown to the user once; it cannot be recovered later. */
  secret: string;
}

/** Validates `input`, stores the key's hash and returns the record with the one-time secret. */
export async function createApiKey(store: AccountStore, input: NewApiKey, now = new Date()): Promise<CreatedApiKey> {
  if (!(KEY_TYPES as readonly string[]).includes(input.type)) {
    throw invalidInput('type', `Key type must be one of ${KEY_TYPES.join(', ')}`);
  }
  const description = typeof input.description === 'string' ? input.description.trim() : '';
  if (description.length === 0 || description.length > MAX_DESCRIPTION_LENGTH) {
    throw invalidInput('description', `Description must be 1 to ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  const domains = normalizeAllowedDomains(input.allowedDomains ?? []);
  if (input.type === 'client' && domains.length === 0) {
    throw invalidInput('allowedDomains', 'Client keys need at least one allowed domain');
  }
  if (input.type !== 'client' && domains.length > 0) {
    throw invalidInput('allowedDomains', 'Only client keys have allowed domains');
  }
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && !(expiresAt instanceof Date && expiresAt.getTime() > now.getTime())) {
    throw invalidInput('expiresAt', 'Expiry must be a date in the future');
  }
  if (!(await store.getAccount(input.accountId))) throw invalidInput('accountId', 'Unknown account');

  const secret = generateApiKey();
  const record = await store.insertKey({
    accountId: input.accountId,
    type: input.type,
    description,
    allowedDomains: domains,
    expiresAt,
    allowedIps: input.allowedIps ?? [],
    id: `key_${randomUUID()}`,
    prefix: displayPrefix(secret),
    keyHash: hashApiKey(secret),
  });
  return { record, secret };
}

/**
 * The principal of a well-formed key this process holds fresh in its cache and that has not
 * expired, without waiting on anything; undefined in every other case, which
 * `authenticateApiKey` then answers (its cached branch gives the same principal, so a caller may
 * try this first). Why: most requests present a cached key, and awaiting a promise per request
 * costs a microtask turn and its allocations on the hottest path.
 */
export function cachedApiKey(store: AccountStore, presented: unknown, now = Date.now()): Principal | undefined {
  if (!isWellFormedApiKey(presented)) return undefined;
  const state = stateOf(store);
  const cached = state.cache.get(hashApiKey(presented));
  if (!cached || now - cached.cachedAtMs >= CACHE_TTL_MS) return undefined;
  if (cached.expiresAtMs !== null && cached.expiresAtMs <= now) return undefined;
  touch(store, state, cached.principal.credentialId, now);
  return copyOf(cached.principal);
}

/**
 * The principal of an active key, or ServiceError UNAUTHORIZED (missing, malformed, unknown:
 * one dull public message, the reason in `cause`; revoked: KEY_STATE_ANSWERS) or EXPIRED_KEY (expires_at ≤ now).
 * A malformed key is refused before any store call.
 */
export async function authenticateApiKey(store: AccountStore, presented: unknown, now = new Date()): Promise<Principal> {
  if (!isWellFormedApiKey(presented)) throw unauthorized(presented === undefined ? 'missing' : 'malformed');
  const nowMs = now.getTime();
  const keyHash = hashApiKey(presented);
  const state = stateOf(store);

  // The Map lookup is not constant-time, but it is keyed by a SHA-256 of the key, so timing can
  // at most reveal bits of a hash, which are useless without its preimage.
  const cached = state.cache.get(keyHash);
  if (cached && nowMs - cached.cachedAtMs < CACHE_TTL_MS) {
    if (cached.expiresAtMs !== null && cached.expiresAtMs <= nowMs) throw expiredKey();
    touch(store, state, cached.principal.credentialId, nowMs);
    return copyOf(cached.principal);
  }
  if (cached) state.cache.delete(keyHash);

  const generation = state.generation;
  const found = await sharedLookup(store, state, keyHash);
  if (!found || !hashesEqual(found.keyHash, keyHash)) throw unauthorized('unknown');
  const { key, account } = found;
  if (key.revokedAt !== null) throw unauthorized('revoked');
  if (key.expiresAt !== null && key.expiresAt.getTime() <= nowMs) throw expiredKey();

  const principal: Principal = {
    accountId: account.id,
    plan: account.plan,
    credentialId: key.id,
    via: 'api_key',
    keyType: key.type,
    allowedDomains: key.allowedDomains,
    allowedIps: key.allowedIps,
    accountAllowedIps: account.allowedIps,
  };
  if (state.generation === generation) {
    if (state.cache.size >= CACHE_MAX_ENTRIES) evictOldest(state.cache);
    const entry = { principal: copyOf(principal), expiresAtMs: key.expiresAt?.getTime() ?? null, cachedAtMs: nowMs };
    state.cache.set(keyHash, entry);
  }
  touch(store, state, key.id, nowMs);
  return principal;
}

/** One store lookup per key hash at a time; every caller waiting on it gets its answer. */
function sharedLookup(store: AccountStore, state: KeyState, keyHash: string): ReturnType<AccountStore['findKeyByHash']> {
  return state.lookups.run(keyHash, () => store.findKeyByHash(keyHash));
}

/** Revokes for good (docs/api.md "Key states": a revoked key cannot be restored). False if unknown or already revoked. */
export async function revokeApiKey(store: AccountStore, id: string): Promise<boolean> {
  const revoked = await store.revokeKey(id);
  forgetApiKey(store, id);
  return revoked;
}

/**
 * Drops this process's cached principal of key `id`; call it right after changing the key's row
 * (revocation, a roll's new expiry, edited domains or IP allow-list) so this process sees the change
 * at once. A lookup that read the row before the write either cached it already (dropped by the loop
 * below, which runs in the same tick as the bump) or resolves later and sees a newer generation, so
 * it does not cache. A lookup that reads after the write sees the new row.
 */
export function forgetApiKey(store: AccountStore, id: string): void {
  const state = stateOf(store);
  state.generation++;
  // A lookup under way may have read the row before the change: later callers start their own.
  state.lookups.clear();
  for (const [hash, entry] of state.cache) {
    if (entry.principal.credentialId === id) state.cache.delete(hash);
  }
}

/** Drops this process's cached principals for `store` (tests; after bulk changes). */
export function clearApiKeyCache(store: AccountStore): void {
  states.delete(store);
}

/** Fire-and-forget last_used_at update, at most once per TOUCH_INTERVAL_MS per key. */
function touch(store: AccountStore, state: KeyState, keyId: string, nowMs: number): void {
  const last = state.touched.get(keyId);
  if (last !== undefined && nowMs - last < TOUCH_INTERVAL_MS) return;
  if (state.touched.size >= CACHE_MAX_ENTRIES) evictOldest(state.touched);
  state.touched.set(keyId, nowMs);
  // Not awaited on the request path; a failed write only leaves last_used_at a little old.
  void store.touchKey(keyId, new Date(nowMs)).catch(() => undefined);
}

/** Callers get their own copy, so mutating a principal cannot alter the cached one. */
function copyOf(principal: Principal): Principal {
  return {
    ...principal,
    allowedDomains: [...principal.allowedDomains],
    ...(principal.allowedIps ? { allowedIps: [...principal.allowedIps] } : {}),
    ...(principal.accountAllowedIps ? { accountAllowedIps: [...principal.accountAllowedIps] } : {}),
  };
}

function hashesEqual(storedHex: string, computedHex: string): boolean {
  const a = Buffer.from(storedHex, 'hex');
  const b = Buffer.from(computedHex, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/** Maps iterate in insertion order, so the first key is the oldest entry. */
function evictOldest(map: Map<string, unknown>): void {
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}

/**
 * What a revoked or expired key is told. Only its holder can present it, so saying which state it is
 * in reveals nothing they could not know, and tells them the one remedy (docs/api.md "Key states");
 * an unknown or malformed key keeps the one dull message, so keys cannot be probed.
 */
export const KEY_STATE_ANSWERS = {
  revoked: { message: 'This API key has been revoked', details: 'Create a new key in the dashboard' },
  expired: { message: ERROR_CATALOG.EXPIRED_KEY.message, details: 'Create a new key in the dashboard, or roll a key before it expires' },
} as const;

function unauthorized(reason: 'missing' | 'malformed' | 'unknown' | 'revoked'): ServiceError {
  const answer = reason === 'revoked' ? KEY_STATE_ANSWERS.revoked : {};
  return new ServiceError('UNAUTHORIZED', { ...answer, cause: new Error(`API key ${reason}`) });
}

const expiredKey = (): ServiceError => new ServiceError('EXPIRED_KEY', KEY_STATE_ANSWERS.expired);
