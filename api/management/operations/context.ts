/**
 * What every management operation is given: the store and the few services it reads (plan
 * catalog, live usage, service status), the settings from config, and a clock. Operations are
 * functions of (context, actor, validated input) returning the typed response; the HTTP layer parses
 * requests with the schemas, resolves the actor from the session cookie, and renders.
 */
import type { Config } from '../../../shared/config.js';
import { ServiceError } from '../../../shared/errors.js';
import type { PlanCatalog } from '../../../shared/limits/plans.js';
import type { RequestLimiter } from '../../../shared/limits/types.js';
import type { Role } from '../../../shared/store/dashboard-types.js';
import type { Account, AccountStore } from '../../../shared/store/types.js';
import type { ActiveSession, SessionPolicy } from '../../sessions/sessions.js';
import type { ThrottlePolicy } from '../../sessions/sign-in.js';
import type { WebhookService } from '../../../shared/webhooks/service.js';

export interface ManagementSettings {
  session: SessionPolicy;
  throttle: ThrottlePolicy;
  keyRollGraceMs: number;
  jwtAudience: string;
}

export function managementSettings(config: Config): ManagementSettings {
  return {
    session: { maxAgeMs: config.SESSION_MAX_AGE_HOURS * 3_600_000, idleMs: config.SESSION_IDLE_MINUTES * 60_000 },
    throttle: {
      windowMs: config.SIGN_IN_WINDOW_MINUTES * 60_000,
      maxPerAddress: config.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
      maxPerEmail: config.SIGN_IN_MAX_FAILURES_PER_EMAIL,
    },
    keyRollGraceMs: config.KEY_ROLL_GRACE_HOURS * 3_600_000,
    jwtAudience: config.JWT_AUDIENCE,
  };
}

export interface ManagementContext {
  store: AccountStore;
  catalog: PlanCatalog;
  limiter: Pick<RequestLimiter, 'usage'>;
  settings: ManagementSettings;
  /** The deployment's origin, for links handed to people (PUBLIC_URL, else the request's origin). */
  baseUrl: string;
  /** The sandbox's base URL, or null when none is served. */
  sandboxUrl: string | null;
  serviceStatus(): Promise<'operational' | 'degraded'>;
  now(): Date;
  /** Webhook endpoints and deliveries; undefined when webhooks are off (api/management/webhooks/). */
  webhooks?: WebhookService | undefined;
}

/** Who acts on an account: a signed-in person, their membership and the account as it is now. */
export interface Actor extends ActiveSession {
  account: Account;
  role: Role;
}

/**
 * The actor for `accountId`, or 404: a person who is not a member is told the account does not
 * exist, so account ids cannot be probed.
 */
export async function resolveActor(ctx: ManagementContext, active: ActiveSession, accountId: string): Promise<Actor> {
  const [membership, account] = await Promise.all([
    ctx.store.users.getMembership(accountId, active.user.id),
    ctx.store.getAccount(accountId),
  ]);
  if (!membership || !account) throw new ServiceError('NOT_FOUND', { message: 'No such account' });
  return { ...active, account, role: membership.role };
}
