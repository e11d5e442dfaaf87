/**
 * The operator path's consent is a production API key (docs/auth.md "Operator path"): revoking
 * that key revokes what it authorised (docs/decisions.md "Enterprise JWT and OAuth 2.0"). Its access tokens are refused
 * with 401, its refresh tokens and unexchanged codes with invalid_grant; grants authorised by
 * another key of the same account keep working. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOAuthClient } from '../../shared/oauth/clients.js';
import { createApiKey, revokeApiKey } from '../../shared/keys/api-keys.js';
import { ENGINES } from '../store/engines.js';
import { expectUnauthorized, OAuthFixture, REDIRECT } from './oauth-fixture.js';
import { basic } from './oauth-helpers.js';

describe.each(ENGINES)('revoking the API key that authorised an OAuth grant (%s)', (engine) => {
  const f = new OAuthFixture();
  beforeAll(() => f.start(engine));
  afterAll(() => f.close());

  it("refuses its access tokens (401) and its refresh tokens and codes (invalid_grant); another key's grants live on", async () => {
    // An Enterprise account of its own, so revoking its key touches nothing the other tests use.
    const key = await f.s.newKey({ plan: 'enterprise' });
    const sibling = await createApiKey(f.s.store, { accountId: key.accountId, type: 'production', description: 'sibling' });
    const client = await registerOAuthClient(f.s.store, { accountId: key.accountId, name: 'Operator app', redirectUris: [REDIRECT] });
    f.issued.push(client.clientSecret!);
    const auth = basic(client.clientId, client.clientSecret!);
    const grant = async (secret: string): Promise<{ access: string; refresh: string }> => {
      const { code, verifier } = await f.getCode({ client: client.clientId, key: secret });
      const r = await f.exchange(code, verifier, { auth });
      expect(r.status).toBe(200);
      return { access: r.body.access_token, refresh: r.body.refresh_token };
    };

    const first = await grant(key.secret);
    const renewed = await f.refresh(first.refresh, auth);
    expect(renewed.status).toBe(200);
    const pending = await f.getCode({ client: client.clientId, key: key.secret });
    // Same account and client, another production key: a grant the revocation must leave alone.
    const other = await grant(sibling.secret);
    expect((await f.hash(first.access)).status).toBe(200);
    expect((await f.hash(renewed.body.access_token)).status).toBe(200);

    expect(await revokeApiKey(f.s.store, key.id)).toBe(true);

    expectUnauthorized(await f.hash(first.access));
    expectUnauthorized(await f.hash(renewed.body.access_token));
    const refreshed = await f.refresh(renewed.body.refresh_token, auth);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    const exchanged = await f.exchange(pending.code, pending.verifier, { auth });
    expect(exchanged.status).toBe(400);
    expect(exchanged.body.error).toBe('invalid_grant');
    expect((await f.introspect(renewed.body.access_token, auth)).body).toEqual({ active: false });

    expect((await f.hash(other.access)).status).toBe(200);
    const otherRenewed = await f.refresh(other.refresh, auth);
    expect(otherRenewed.status).toBe(200);
    expect((await f.hash(otherRenewed.body.access_token)).status).toBe(200);
  });
});
