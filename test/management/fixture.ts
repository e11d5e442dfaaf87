/**
 * A management context over a real store (SQLite or PostgreSQL), the default plan catalog and an
 * in-memory limiter, plus people with roles and sessions to act as. `check` validates an
 * operation's answer against its response schema and fails on any field the schema does not name.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Actor, ManagementContext } from '../../api/management/operations/context.js';
import { resolveActor } from '../../api/management/operations/context.js';
import { hashPassword } from '../../api/sessions/passwords.js';
import { issueSession, validateSession, type ActiveSession } from '../../api/sessions/sessions.js';
import { createMemoryLimiter } from '../../shared/limits/limiter.js';
import { DEFAULT_PLAN_CATALOG } from '../../shared/limits/plans.js';
import type { RequestLimiter } from '../../shared/limits/types.js';
import type { Role } from '../../shared/store/dashboard-types.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import type { Plan } from '../../shared/store/types.js';
import { createTestDatabase, type EngineName, type TestDatabase } from '../store/engines.js';
import type { z } from 'zod';

export const PASSWORD = 'a password long enough';
export const BASE_URL = 'https://hash.example.com';

export interface Fixture {
  store: KyselyAccountStore;
  ctx: ManagementContext;
  limiter: RequestLimiter;
  /** The clock every operation reads; tests move it. */
  clock: { now: Date };
  /** A new account on `plan` with a person of `role` in it, signed in. */
  member(role: Role, plan?: Plan, accountId?: string): Promise<Actor>;
  /** Signs in the person of `actor` again (a second session). */
  session(userId: string): Promise<ActiveSession>;
  close(): Promise<void>;
}

export async function createFixture(engine: EngineName = 'sqlite'): Promise<Fixture> {
  const db: TestDatabase = await createTestDatabase(engine);
  const store = await createStore(db.options);
  const clock = { now: new Date() };
  const limiter = createMemoryLimiter({ catalog: DEFAULT_PLAN_CATALOG, store, flushIntervalMs: 60_000, now: () => clock.now.getTime() });
  const ctx: ManagementContext = {
    store,
    catalog: DEFAULT_PLAN_CATALOG,
    limiter,
    settings: {
      session: { maxAgeMs: 7 * 24 * 3_600_000, idleMs: 12 * 3_600_000 },
      throttle: { windowMs: 15 * 60_000, maxPerAddress: 20, maxPerEmail: 5 },
      keyRollGraceMs: 24 * 3_600_000,
      jwtAudience: 'sha224d',
    },
    baseUrl: BASE_URL,
    sandboxUrl: 'http://127.0.0.1:8081',
    serviceStatus: () => Promise.resolve('operational'),
    now: () => clock.now,
  };
  const passwordHash = await hashPassword(PASSWORD);

  async function session(userId: string): Promise<ActiveSession> {
    const issued = await issueSession(store, {
      userId,
      userAgent: 'vitest',
      address: '127.0.0.1',
      now: clock.now,
      policy: ctx.settings.session,
    });
    const active = await validateSession(store, issued.token, clock.now);
    if (!active) throw new Error('fresh session did not validate');
    return active;
  }

  return {
    store,
    ctx,
    limiter,
    clock,
    session,
    async member(role, plan = 'pro', accountId) {
      const id = accountId ?? (await store.createAccount({ name: `acct-${randomUUID().slice(0, 6)}`, plan })).id;
      const user = (await store.users.createUser({ email: `${role}.${randomUUID().slice(0, 8)}@example.com`, name: role }))!;
      await store.users.setPasswordHash(user.id, passwordHash, clock.now);
      await store.users.addMembership(id, user.id, role);
      return resolveActor(ctx, await session(user.id), id);
    },
    async close() {
      await limiter.close();
      await store.close();
      await db.cleanup();
    },
  };
}

/** Parses `value` with `schema` and requires the parse to keep it exactly (no unknown or missing fields). */
export function check<S extends z.ZodType>(schema: S, value: z.output<S>): z.output<S> {
  const parsed = schema.parse(value);
  expect(parsed).toEqual(value);
  return parsed;
}

/** The ServiceError a promise rejects with (fails the test if it resolves). */
export async function refusal(
  p: Promise<unknown>,
): Promise<{ code: string; status: number; message: string; details?: string | undefined }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; status: number; message: string; details?: string };
  }
  throw new Error('expected a refusal');
}
