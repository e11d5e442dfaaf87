/**
 * Runs the generated cases of fuzz-cases.ts one after another against a service and checks, after
 * each, what the service did with it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzCase, type FuzzCase } from './fuzz-cases.js';
import { exchange, type RawExchange } from './raw-client.js';
import { answersHash, blobsLeft, type Service } from './services.js';

export interface FuzzLimits {
  /** The service's BODY_IDLE_TIMEOUT_MS and HEADERS_TIMEOUT_MS. */
  bodyIdleMs: number;
  headersMs: number;
}

/** Slack over a timeout: the checker's period and scheduling on a shared 2-core machine. */
const SLACK_MS = 3000;

/**
 * Send one case; then: no 5xx, every refusal is a JSON error envelope, nothing was held past its
 * timeout, the process is alive, answers /v2/hash correctly, and holds no uploaded bytes.
 */
export async function runCase(service: Service, c: FuzzCase, limits: FuzzLimits): Promise<RawExchange> {
  const bound = Math.max(limits.bodyIdleMs, limits.headersMs) + SLACK_MS;
  const x = await exchange(service.port, { ...c.plan, waitMs: bound });
  for (const r of x.responses) {
    expect(r.status, `${r.status} ${r.body}`).toBeLessThan(500);
    if (r.status >= 400) {
      const error = (r.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      expect(typeof error?.code, r.body).toBe('string');
      expect(typeof error?.message, r.body).toBe('string');
    }
  }
  if (c.plan.abortAfterMs === undefined) {
    // Answered, or closed by the server: never left hanging past the timeouts.
    expect(x.responses.length > 0 || x.serverClosed, `held open: ${x.trailing.slice(0, 200)}`).toBe(true);
  }
  if (c.stalls) expect(x.closedAfterMs).toBeLessThan(bound);
  expect(service.alive(), service.output().slice(-2000)).toBe(true);
  await answersHash(service);
  expect(await blobsLeft(service)).toEqual([]);
  return x;
}

export interface FuzzFigures {
  cases: number;
  byKind: Record<string, number>;
  /** Milliseconds spent per kind, checks after each case included. */
  msByKind: Record<string, number>;
  statuses: Record<string, number>;
  ms: number;
}

/** Run `numRuns` generated cases, one after another, against `service`. */
export async function fuzz(service: Service, numRuns: number, limits: FuzzLimits): Promise<FuzzFigures> {
  const figures: FuzzFigures = { cases: 0, byKind: {}, msByKind: {}, statuses: {}, ms: 0 };
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(fuzzCase(service.key), async (c) => {
      const caseStarted = Date.now();
      const x = await runCase(service, c, limits);
      figures.cases += 1;
      figures.byKind[c.kind] = (figures.byKind[c.kind] ?? 0) + 1;
      figures.msByKind[c.kind] = (figures.msByKind[c.kind] ?? 0) + Date.now() - caseStarted;
      const status = x.responses[0] === undefined ? 'none' : String(x.responses[0].status);
      figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
    }),
    // A failing case is reported as it is: shrinking would replay hundreds against a live service.
    { numRuns, endOnFailure: true },
  );
  figures.ms = Date.now() - started;
  return figures;
}

const SUITE_LIMITS: FuzzLimits = { bodyIdleMs: 150, headersMs: 300 };

/**
 * One fuzz suite: `cases` generated cases against the service `spawn` starts, with timeouts short
 * enough that stalls resolve in a fraction of a second; afterwards the service is still running.
 */
export function describeFuzz(label: string, spawn: (env: Record<string, string>) => Promise<Service>, cases: number): void {
  describe(`fuzz: ${label}`, () => {
    let s: Service;
    beforeAll(async () => {
      s = await spawn({
        BODY_IDLE_TIMEOUT_MS: String(SUITE_LIMITS.bodyIdleMs),
        HEADERS_TIMEOUT_MS: String(SUITE_LIMITS.headersMs),
        REQUEST_TIMEOUT_MS: '3000',
        KEEP_ALIVE_TIMEOUT_MS: '1000',
      });
    });
    afterAll(() => s.close());

    it(`${cases} generated cases: no exit, no 5xx, no hang, no blob left`, async () => {
      const figures = await fuzz(s, cases, SUITE_LIMITS);
      console.log(`fuzz ${label}: ${JSON.stringify(figures)}`);
      expect(figures.cases).toBe(cases);
      expect(s.alive()).toBe(true);
    }, 240_000);
  });
}
