/**
 * What every OAuth endpoint test needs: a running API (embedded, SQLite), a registered confidential
 * client, the steps of the flow as one-liners, and the record of every secret handed out (OAuth
 * secrets, API keys, people's passwords and session tokens), for the closing scan that none of them
 * is stored or logged in clear.
 *
 *   const f = new OAuthFixture();
 *   beforeAll(() => f.start());
 *   afterAll(() => f.close());
 */
import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import { hashPassword, verifyPassword } from '../../api/sessions/passwords.js';
import { hashToken } from '../../shared/accounts/secret-tokens.js';
import { BEARER_MESSAGES } from '../../shared/auth/jwt.js';
import { registerOAuthClient } from '../../shared/oauth/clients.js';
import { hashApiKey } from '../../shared/keys/format.js';
import type { Role } from '../../shared/store/dashboard-types.js';
import type { KyselyAccountStore } from '../../shared/store/kysely-store.js';
import type { Database } from '../../shared/store/schema.js';
import { postJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import type { EngineName } from '../store/engines.js';
import { authorize, basic, pkcePair, postForm } from './oauth-helpers.js';
import { SHA224_ABC } from '../helpers/digests.js';

/** SHA-224("abc"), FIPS 180-4 example. */
export const ABC = SHA224_ABC;
export const REDIRECT = 'https://app.example.com/callback';
export const LOOPBACK_REDIRECT = 'http://127.0.0.1:8765/cb';

export interface CodeOptions {
  scope?: string;
  key?: string;
  client?: string;
  redirectUri?: string;
  extra?: Record<string, string>;
  method?: 'GET' | 'POST';
}

export interface ExchangeOptions {
  redirectUri?: string;
  auth?: Record<string, string>;
  body?: Record<string, string>;
}

export type FormResult = Awaited<ReturnType<typeof postForm>>;

/** A person signed in to the dashboard: their session cookie and its CSRF token. */
export interface Person {
  cookie: string;
  csrf: string;
}

const PERSON_PASSWORD = 'consent tests password';

export class OAuthFixture {
  #server: TestServer | undefined;
  clientId = '';
  clientSecret = '';
  /** Every OAuth secret the server handed out, for the final scan of the tables. */
  readonly issued: string[] = [];
  /** Every person signed in by person(): their email, password, session token and CSRF token, for the same scan. */
  readonly people: Array<{ email: string; password: string; sessionToken: string; csrf: string }> = [];

  get s(): TestServer {
    if (!this.#server) throw new Error('OAuthFixture.start() has not run');
    return this.#server;
  }

  get db(): Kysely<Database> {
    return (this.s.store as KyselyAccountStore).db;
  }

  /** On SQLite unless `engine` says otherwise. */
  async start(engine?: EngineName): Promise<void> {
    this.#server = await startTestServer(engine === undefined ? {} : { engine });
    const client = await this.registerClient('Test app', [REDIRECT, LOOPBACK_REDIRECT]);
    this.clientId = client.clientId;
    this.clientSecret = client.clientSecret;
  }

  async close(): Promise<void> {
    await this.#server?.close();
  }

  /** A confidential client of the test account. */
  async registerClient(name: string, redirectUris = [REDIRECT]): Promise<{ clientId: string; clientSecret: string }> {
    const client = await registerOAuthClient(this.s.store, { accountId: this.s.accountId, name, redirectUris });
    this.issued.push(client.clientSecret!);
    return { clientId: client.clientId, clientSecret: client.clientSecret! };
  }

  /** A new person with `role` in `accountId` (the test account by default), signed in to the dashboard. */
  async person(role: Role, accountId = this.s.accountId): Promise<Person> {
    const email = `${role}.${Math.random().toString(36).slice(2, 8)}@example.com`;
    const user = (await this.s.store.users.createUser({ email, name: role }))!;
    await this.s.store.users.setPasswordHash(user.id, await hashPassword(PERSON_PASSWORD), new Date());
    await this.s.store.users.addMembership(accountId, user.id, role);
    const res = await fetch(`${this.s.url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.s.url },
      body: JSON.stringify({ email, password: PERSON_PASSWORD }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { csrfToken: string };
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    this.people.push({ email, password: PERSON_PASSWORD, sessionToken: cookie.slice(cookie.indexOf('=') + 1), csrf: body.csrfToken });
    return { cookie, csrf: body.csrfToken };
  }

  basic(clientId = this.clientId, secret = this.clientSecret): Record<string, string> {
    return basic(clientId, secret);
  }

  authorizeParams(o: CodeOptions, challenge: string): Record<string, string> {
    return {
      response_type: 'code',
      client_id: o.client ?? this.clientId,
      redirect_uri: o.redirectUri ?? REDIRECT,
      scope: o.scope ?? 'hash:create hash:verify',
      state: 'st-123',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...o.extra,
    };
  }

  async getCode(o: CodeOptions = {}): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const r = await authorize(this.s.url, this.authorizeParams(o, challenge), { 'x-api-key': o.key ?? this.s.keys.production }, o.method);
    expect(r.status).toBe(302);
    expect(r.location?.searchParams.get('error')).toBeNull();
    expect(r.location?.searchParams.get('state')).toBe('st-123');
    const code = r.location!.searchParams.get('code')!;
    this.issued.push(code);
    return { code, verifier };
  }

  async exchange(code: string, verifier: string, o: ExchangeOptions = {}): Promise<FormResult> {
    const r = await postForm(
      `${this.s.url}/oauth/token`,
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: o.redirectUri ?? REDIRECT, ...o.body },
      o.auth ?? this.basic(),
    );
    this.record(r);
    return r;
  }

  async tokens(o: CodeOptions = {}): Promise<{ access: string; refresh: string }> {
    const { code, verifier } = await this.getCode(o);
    const r = await this.exchange(code, verifier, { redirectUri: o.redirectUri });
    expect(r.status).toBe(200);
    return { access: r.body.access_token, refresh: r.body.refresh_token };
  }

  /**
   * A new Enterprise account with a confidential client of its own and tokens its production key
   * authorized: an account a test may move off the Enterprise plan without touching the others.
   */
  async ownAccountTokens(): Promise<{ accountId: string; auth: Record<string, string>; access: string; refresh: string }> {
    const { secret, accountId } = await this.s.newKey({ plan: 'enterprise' });
    const own = await registerOAuthClient(this.s.store, { accountId, name: 'Downgraded', redirectUris: [REDIRECT] });
    this.issued.push(own.clientSecret!);
    const auth = basic(own.clientId, own.clientSecret!);
    const { code, verifier } = await this.getCode({ client: own.clientId, key: secret });
    const t = await this.exchange(code, verifier, { auth });
    return { accountId, auth, access: t.body.access_token, refresh: t.body.refresh_token };
  }

  async refresh(refreshToken: string, auth = this.basic(), extra: Record<string, string> = {}): Promise<FormResult> {
    const r = await postForm(`${this.s.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra }, auth);
    this.record(r);
    return r;
  }

  revoke(token: string, auth = this.basic()): Promise<FormResult> {
    return postForm(`${this.s.url}/oauth/revoke`, { token }, auth);
  }

  introspect(token: string, auth = this.basic(), extra: Record<string, string> = {}): Promise<FormResult> {
    return postForm(`${this.s.url}/oauth/introspect`, { token, ...extra }, auth);
  }

  hash(token: string): ReturnType<typeof postJson> {
    return postJson(`${this.s.url}/v2/hash`, { data: 'abc' }, { authorization: `Bearer ${token}` });
  }

  verify(token: string): ReturnType<typeof postJson> {
    return postJson(`${this.s.url}/v2/verify`, { data: 'abc', hash: ABC }, { authorization: `Bearer ${token}` });
  }

  /** Tokens from a successful token response join the scan. */
  record(r: FormResult): void {
    if (r.status === 200) this.issued.push(r.body.access_token, r.body.refresh_token);
  }

  /**
   * Every row of every table (users, sessions and api_keys among them) and the log, against every
   * secret handed out: OAuth secrets, the server's API keys, and each person's password, session
   * token and CSRF token. None is there in clear, not even without its prefix; what is stored is
   * the hash, which is checked too, so the scan cannot pass by reading the wrong tables.
   */
  async expectNoSecretsInClear(atLeast: number): Promise<void> {
    expect(this.issued.length).toBeGreaterThanOrEqual(atLeast);
    const tables = await this.db.introspection.getTables({ withInternalKyselyTables: true });
    const rows: Record<string, unknown[]> = {};
    for (const { name } of tables) rows[name] = (await sql<unknown>`select * from ${sql.table(name)}`.execute(this.db)).rows;
    expect(Object.keys(rows)).toEqual(expect.arrayContaining(['api_keys', 'users', 'sessions', 'oauth_clients', 'oauth_access_tokens']));
    const dump = JSON.stringify(rows);
    const logs = this.s.logs();

    const apiKeys = Object.values(this.s.keys);
    const secrets: Array<[kind: string, secret: string]> = [
      ...this.issued.map((secret): [string, string] => ['an OAuth secret', secret]),
      ...apiKeys.map((secret): [string, string] => ['an API key', secret]),
      ...this.people.flatMap((p): Array<[string, string]> => [
        ['a password', p.password],
        ['a session token', p.sessionToken],
        ['a CSRF token', p.csrf],
      ]),
    ];
    for (const [kind, secret] of secrets) {
      expect(typeof secret).toBe('string');
      for (const [place, text] of [
        ['the database', dump],
        ['the log', logs],
      ] as const) {
        expect(text.includes(secret), `${kind} in ${place}`).toBe(false);
        expect(text.includes(secret.replace(/^s224[a-z]*_/, '')), `${kind} without its prefix in ${place}`).toBe(false);
      }
    }
    expect(logs).not.toMatch(/s224(cs|ac|at|rt|s)_/);

    for (const key of apiKeys) expect(dump).toContain(hashApiKey(key));
    const users = await this.db.selectFrom('users').select(['email', 'password_hash']).execute();
    for (const person of this.people) {
      const stored = users.find((u) => u.email === person.email)?.password_hash;
      expect(stored).toMatch(/^\$scrypt\$/);
      expect(await verifyPassword(person.password, stored!)).toBe(true);
    }
    // A session a test ended is gone; the others are kept by their token's hash.
    if (this.people.length > 0) expect(this.people.some((p) => dump.includes(hashToken(p.sessionToken)))).toBe(true);
  }
}

export function expectUnauthorized(r: { status: number; body: any }): void {
  expect(r.status).toBe(401);
  expect(r.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: BEARER_MESSAGES.invalid });
}
