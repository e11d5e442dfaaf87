/**
 * Canned management-API answers for looking at the dashboard without a server: one Enterprise
 * account with keys of every type and state, 30 days of usage, applications, consents, members,
 * sessions and JWT keys. The fixture server validates every answer against the contract, so these
 * cannot drift from the schemas the real server will answer with.
 */
import type { ManagementApi } from '../../api/management/contract.js';
import type { RouteName } from '../../api/management/routes.js';
import { DEFAULT_PLAN_CATALOG } from '../../shared/limits/plans.js';
import { rateFor } from '../../shared/limits/rules.js';

type Responses = { [K in RouteName]?: ManagementApi[K]['response'] };

/** The Enterprise row of the plan table, and a development key's rates by the limiter's rule: what the server answers. */
const ENTERPRISE = DEFAULT_PLAN_CATALOG.plans.enterprise;
const devRate = (rate: number | null, window: 'second' | 'minute') => rateFor(DEFAULT_PLAN_CATALOG, 'development', rate, window)!;

export const ACCOUNT_ID = 'acc_3f1c9a4e-0b7d-4c55-9e21-7d0c5b8a1e42';
export const CSRF_TOKEN = 'csrf-fixture-token-000000000000000000000000';
/** Relative to the real clock, so "last used" reads like it would in use. */
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const days = Array.from({ length: 30 }, (_, i) => new Date(NOW - (29 - i) * DAY).toISOString().slice(0, 10));
/** A weekly rhythm with growth, so the chart has a shape to check. */
const wave = (i: number, base: number) => Math.round(base * (1 + i / 40) * (new Date(days[i]!).getUTCDay() % 6 === 0 ? 0.35 : 1));

export function fixtures(): Responses {
  const keyA = 'key_1b7e0c2a-5d3f-4a61-8f0e-2c9b7a6d5e41';
  const keyB = 'key_9c2d4e6f-7a8b-4c1d-9e0f-1a2b3c4d5e6f';
  const perKeyA = days.map((_, i) => wave(i, 1800));
  const perKeyB = days.map((_, i) => wave(i, 600));
  const jwt = days.map((_, i) => (i > 20 ? wave(i, 250) : 0));
  return {
    me: {
      user: { id: 'usr_ada', email: 'ada@acme.example', name: 'Ada', passwordChangedAt: iso(40 * DAY), createdAt: iso(200 * DAY) },
      memberships: [
        { accountId: ACCOUNT_ID, accountName: 'Acme Labs', plan: 'enterprise', role: 'owner' },
        { accountId: 'acc_side', accountName: 'Side project', plan: 'free', role: 'developer' },
      ],
      session: { id: 'ses_current', expiresAt: iso(-6 * DAY) },
      csrfToken: CSRF_TOKEN,
    },
    accountOverview: {
      account: {
        id: ACCOUNT_ID,
        name: 'Acme Labs',
        plan: 'enterprise',
        createdAt: iso(200 * DAY),
        allowedIps: ['203.0.113.0/24', '2001:db8:42::/48'],
      },
      role: 'owner',
      today: { used: 4_812, quota: ENTERPRISE.dailyQuota, remaining: ENTERPRISE.dailyQuota, resetsAt: iso(-9.5 * HOUR) },
      limits: {
        v1PerSecond: ENTERPRISE.v1PerSecond,
        v1PerMinute: ENTERPRISE.v1PerMinute,
        v2PerSecond: ENTERPRISE.v2PerSecond,
        v1MaxFileBytes: ENTERPRISE.v1MaxFileBytes,
        v2MaxFileBytes: ENTERPRISE.v2MaxFileBytes,
        wsConnections: ENTERPRISE.wsConnections,
      },
      developmentLimits: {
        v1PerSecond: devRate(ENTERPRISE.v1PerSecond, 'second'),
        v1PerMinute: devRate(ENTERPRISE.v1PerMinute, 'minute'),
        v2PerSecond: devRate(ENTERPRISE.v2PerSecond, 'second'),
      },
      features: { ipAllowList: true, oauth: true, jwt: true },
      status: 'operational',
    },
    listKeys: {
      keys: [
        {
          id: keyA,
          prefix: 's224_Kx81Fq2',
          type: 'production',
          description: 'Build server',
          allowedDomains: [],
          allowedIps: ['203.0.113.10'],
          createdAt: iso(90 * DAY),
          lastUsedAt: iso(5 * 60_000),
          expiresAt: null,
          revokedAt: null,
          status: 'active',
          replacedBy: null,
        },
        {
          id: keyB,
          prefix: 's224_Wb3ZtQ9',
          type: 'client',
          description: 'Marketing site checksum widget',
          allowedDomains: ['www.acme.example', '*.acme.example'],
          allowedIps: [],
          createdAt: iso(30 * DAY),
          lastUsedAt: iso(2 * HOUR),
          expiresAt: iso(-60 * DAY),
          revokedAt: null,
          status: 'active',
          replacedBy: null,
        },
        {
          id: 'key_dev',
          prefix: 's224_Dv77abc',
          type: 'development',
          description: 'Laptop tests',
          allowedDomains: [],
          allowedIps: [],
          createdAt: iso(12 * DAY),
          lastUsedAt: null,
          expiresAt: null,
          revokedAt: null,
          status: 'active',
          replacedBy: null,
        },
        {
          id: 'key_ro',
          prefix: 's224_Ro0x1yz',
          type: 'read_only',
          description: 'Grafana usage panel',
          allowedDomains: [],
          allowedIps: [],
          createdAt: iso(60 * DAY),
          lastUsedAt: iso(DAY),
          expiresAt: iso(-2 * HOUR),
          revokedAt: null,
          status: 'rolling',
          replacedBy: 'key_ro2',
        },
        {
          id: 'key_old',
          prefix: 's224_Old9876',
          type: 'production',
          description: 'Old CI (leaked in a log)',
          allowedDomains: [],
          allowedIps: [],
          createdAt: iso(180 * DAY),
          lastUsedAt: iso(100 * DAY),
          expiresAt: null,
          revokedAt: iso(99 * DAY),
          status: 'revoked',
          replacedBy: null,
        },
      ],
    },
    usage: {
      from: days[0]!,
      to: days[29]!,
      generatedAt: iso(0),
      days: days.map((day, i) => {
        const v2 = Math.round(perKeyA[i]! * 0.7) + perKeyB[i]!;
        const v1 = perKeyA[i]! - Math.round(perKeyA[i]! * 0.7);
        return { day, total: v1 + v2 + jwt[i]! + 40, byGeneration: { v1, v2, websocket: jwt[i]! } };
      }),
      credentials: [
        {
          credential: keyA,
          kind: 'api_key',
          label: 'Build server (s224_Kx81Fq2…)',
          total: perKeyA.reduce((a, b) => a + b, 0),
          perDay: perKeyA,
        },
        {
          credential: keyB,
          kind: 'api_key',
          label: 'Marketing site checksum widget (s224_Wb3ZtQ9…)',
          total: perKeyB.reduce((a, b) => a + b, 0),
          perDay: perKeyB,
        },
        { credential: 'jwt:signer-2030', kind: 'jwt', label: 'JWT key signer-2030', total: jwt.reduce((a, b) => a + b, 0), perDay: jwt },
      ],
      // Of today's 40 unattributed requests, 25 are not flushed yet; the rest (and every other day's 40) named no key.
      pending: 25,
    },
    sandbox: {
      url: 'http://127.0.0.1:8081',
      today: { used: 37, quota: 100_000, resetsAt: iso(-9.5 * HOUR) },
      days: days.map((day, i) => ({ day, count: i % 3 === 0 ? 20 + i : 0 })),
      example: `curl -s "http://127.0.0.1:8081/v1/hash/text" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"text":"hello world"}'`,
    },
    listOAuthApps: {
      apps: [
        {
          clientId: 's224c_q0Vn3d0yQyWc2lR1m8x4b9KkzP5rT7sUaGhJ2eLfN6o',
          name: 'Release checker',
          redirectUris: ['https://release.acme.example/oauth/callback'],
          public: false,
          createdAt: iso(20 * DAY),
        },
        {
          clientId: 's224c_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2H1g0F9e',
          name: 'acme-cli',
          redirectUris: ['http://127.0.0.1:53682/callback'],
          public: true,
          createdAt: iso(3 * DAY),
        },
      ],
    },
    listGrants: {
      grants: [
        {
          id: 'ogr_1',
          clientId: 's224c_q0Vn3d0yQyWc2lR1m8x4b9KkzP5rT7sUaGhJ2eLfN6o',
          appName: 'Release checker',
          scopes: ['hash:create', 'hash:verify'],
          consentedBy: { userId: 'usr_ada', email: 'ada@acme.example' },
          createdAt: iso(19 * DAY),
          lastUsedAt: iso(HOUR),
        },
        {
          id: 'ogr_2',
          clientId: 's224c_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2H1g0F9e',
          appName: 'acme-cli',
          scopes: ['usage:read'],
          consentedBy: { userId: 'usr_grace', email: 'grace@acme.example' },
          createdAt: iso(2 * DAY),
          lastUsedAt: null,
        },
      ],
    },
    listMembers: {
      members: [
        { userId: 'usr_ada', email: 'ada@acme.example', name: 'Ada', role: 'owner', hasPassword: true, since: iso(200 * DAY), you: true },
        {
          userId: 'usr_grace',
          email: 'grace@acme.example',
          name: 'Grace',
          role: 'admin',
          hasPassword: true,
          since: iso(150 * DAY),
          you: false,
        },
        {
          userId: 'usr_linus',
          email: 'linus@acme.example',
          name: '',
          role: 'developer',
          hasPassword: true,
          since: iso(40 * DAY),
          you: false,
        },
        { userId: 'usr_new', email: 'new.hire@acme.example', name: '', role: 'viewer', hasPassword: false, since: iso(HOUR), you: false },
      ],
    },
    listSessions: {
      sessions: [
        {
          id: 'ses_current',
          createdAt: iso(HOUR),
          lastSeenAt: iso(0),
          expiresAt: iso(-6 * DAY),
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0',
          address: '203.0.113.44',
          current: true,
        },
        {
          id: 'ses_phone',
          createdAt: iso(3 * DAY),
          lastSeenAt: iso(5 * HOUR),
          expiresAt: iso(-4 * DAY),
          userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 19_0) Safari/605.1',
          address: '198.51.100.7',
          current: false,
        },
      ],
    },
    listJwtKeys: {
      issuer: ACCOUNT_ID,
      audience: 'sha224d',
      keys: [
        {
          kid: 'signer-2030',
          alg: 'EdDSA',
          source: 'pem',
          publicJwk: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
          createdAt: iso(10 * DAY),
          lastUsedAt: iso(20 * 60_000),
        },
      ],
    },
    linkInfo: { email: 'new.hire@acme.example', purpose: 'setup' },
  };
}
