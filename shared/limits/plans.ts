/**
 * The plan catalog: every rate, quota and size limit of every plan, in one value that
 * an operator may override with a JSON file (PLANS_FILE). Built-in defaults are the contract's three
 * "Limits" tables; how they combine is recorded in docs/limits.md.
 *
 * Units: sizes are bytes with the contract's MB read as MiB (2^20) and GB as GiB (2^30), as
 * MAX_FILE_BYTES in shared/config.ts: a limit never refuses a file that an operating system shows
 * as within it, and Enterprise's "1 GB" admits a 1 GiB /v2/stream upload.
 * `null` means "no limit" (the contract's "unlimited" and "custom").
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PLANS, type Plan } from '../store/types.js';

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** Tiers of docs/api.md "v1 limits by tier"; Set A's /v1/usage reports one as `account.tier`. */
export const V1_TIERS = ['Free', 'Developer', 'Enterprise'] as const;
export type V1Tier = (typeof V1_TIERS)[number];

export interface PlanLimits {
  /** Tier name reported by v1 Set A (free→Free, basic and pro→Developer, enterprise→Enterprise). */
  v1Tier: V1Tier;
  /** v1 Set A requests per second (docs/api.md "v1 limits by tier"). */
  v1PerSecond: number | null;
  /** v1 Set B requests per minute (docs/api.md "v1 limits by plan"). */
  v1PerMinute: number | null;
  /** v2 and WebSocket messages, requests per second (docs/api.md "v2 limits by plan"). */
  v2PerSecond: number | null;
  /** One daily quota per account, shared by every generation; resets at 00:00 UTC. */
  dailyQuota: number | null;
  /** v1 file and URL bodies (docs/api.md "v1 limits by tier", largest file). */
  v1MaxFileBytes: number;
  /** v2 file, stream and URL bodies (docs/api.md "v2 limits by plan", largest file). */
  v2MaxFileBytes: number;
  /** Concurrent WebSocket connections per account (docs/api.md "v2 limits by plan"). */
  wsConnections: number | null;
}

export interface DevelopmentKeyRates {
  /** Development keys run at this fraction of the plan's rates, at least 1 per window. */
  rateFactor: number;
  /** Per-second rate of a development key where the plan's rate is unlimited. */
  perSecondWhenUnlimited: number;
  /** Per-minute rate of a development key where the plan's rate is unlimited. */
  perMinuteWhenUnlimited: number;
}

export interface PlanCatalog {
  plans: Record<Plan, PlanLimits>;
  developmentKeys: DevelopmentKeyRates;
  /** docs/api.md "Other limits": /v2/file takes up to 100 MB whatever the plan; larger goes to /v2/stream. */
  v2FileEndpointMaxBytes: number;
}

/** docs/api.md "Limits": the three tables, read as docs/limits.md explains. */
export const DEFAULT_PLAN_CATALOG: PlanCatalog = {
  plans: {
    free: {
      v1Tier: 'Free',
      v1PerSecond: 5,
      v1PerMinute: 10,
      v2PerSecond: 10,
      dailyQuota: 1_000,
      v1MaxFileBytes: 5 * MB,
      v2MaxFileBytes: 10 * MB,
      wsConnections: 1,
    },
    basic: {
      v1Tier: 'Developer',
      v1PerSecond: 20,
      v1PerMinute: 60,
      v2PerSecond: 50,
      dailyQuota: 10_000,
      v1MaxFileBytes: 25 * MB,
      v2MaxFileBytes: 50 * MB,
      wsConnections: 5,
    },
    pro: {
      v1Tier: 'Developer',
      v1PerSecond: 20,
      v1PerMinute: 300,
      v2PerSecond: 200,
      dailyQuota: 100_000,
      v1MaxFileBytes: 25 * MB,
      v2MaxFileBytes: 100 * MB,
      wsConnections: 20,
    },
    enterprise: {
      v1Tier: 'Enterprise',
      v1PerSecond: null,
      // "1,000+": the floor of the contract's figure; operators raise it per deployment.
      v1PerMinute: 1_000,
      v2PerSecond: null,
      dailyQuota: null,
      v1MaxFileBytes: 100 * MB,
      v2MaxFileBytes: 1 * GB,
      wsConnections: null,
    },
  },
  developmentKeys: { rateFactor: 0.2, perSecondWhenUnlimited: 50, perMinuteWhenUnlimited: 3_000 },
  v2FileEndpointMaxBytes: 100 * MB,
};

const limit = z.number().int().positive().nullable();
const bytes = z.number().int().positive();

const planOverrideSchema = z.strictObject({
  v1Tier: z.enum(V1_TIERS).optional(),
  v1PerSecond: limit.optional(),
  v1PerMinute: limit.optional(),
  v2PerSecond: limit.optional(),
  dailyQuota: limit.optional(),
  v1MaxFileBytes: bytes.optional(),
  v2MaxFileBytes: bytes.optional(),
  wsConnections: limit.optional(),
});

const catalogFileSchema = z.strictObject({
  /** Lets an operator's file carry a `$schema` or note without tripping strict parsing. */
  $comment: z.string().optional(),
  plans: z.partialRecord(z.enum(PLANS), planOverrideSchema).optional(),
  developmentKeys: z
    .strictObject({
      rateFactor: z.number().gt(0).max(1).optional(),
      perSecondWhenUnlimited: z.number().int().positive().optional(),
      perMinuteWhenUnlimited: z.number().int().positive().optional(),
    })
    .optional(),
  v2FileEndpointMaxBytes: bytes.optional(),
});

export type PlanCatalogFile = z.input<typeof catalogFileSchema>;

/**
 * Validate an operator's catalog and merge it over the defaults field by field: a plan or field
 * left out keeps its default. Throws an Error whose message names every offending field.
 */
export function parsePlanCatalog(input: unknown, source = 'plan catalog'): PlanCatalog {
  const parsed = catalogFileSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .flatMap((i) =>
        i.code === 'unrecognized_keys'
          ? i.keys.map((key) => `${formatPath([...i.path, key])}: ${unknownKeyHint(i.path)}`)
          : [`${formatPath(i.path)}: ${i.message}`],
      )
      .join('; ');
    throw new Error(`Invalid ${source}: ${issues}`);
  }
  const file = parsed.data;
  const plans = {} as Record<Plan, PlanLimits>;
  for (const plan of PLANS) {
    // JSON cannot carry `undefined`, so a spread never blanks a default.
    plans[plan] = { ...DEFAULT_PLAN_CATALOG.plans[plan], ...file.plans?.[plan] };
  }
  return {
    plans,
    developmentKeys: { ...DEFAULT_PLAN_CATALOG.developmentKeys, ...file.developmentKeys },
    v2FileEndpointMaxBytes: file.v2FileEndpointMaxBytes ?? DEFAULT_PLAN_CATALOG.v2FileEndpointMaxBytes,
  };
}

/**
 * The catalog to serve: the defaults when `path` is undefined (PLANS_FILE unset), else the file's
 * overrides merged over them. Read once at start; a bad file stops the start with a message that
 * names the file and the field.
 */
export function loadPlanCatalog(path?: string): PlanCatalog {
  if (path === undefined || path === '') return parsePlanCatalog({});
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`PLANS_FILE ${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, {
      cause: err,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`PLANS_FILE ${path}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  return parsePlanCatalog(json, `PLANS_FILE ${path}`);
}

function unknownKeyHint(path: readonly PropertyKey[]): string {
  return path.length === 1 && path[0] === 'plans' ? `unknown plan (plans: ${PLANS.join(', ')})` : 'unknown field';
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}
