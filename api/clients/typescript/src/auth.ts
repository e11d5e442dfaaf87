/**
 * The client's credential and the headers it becomes (docs/api.md "Authentication"): v2 takes an API
 * key in `X-API-Key`, v1 as `Authorization: Bearer`; tokens (Enterprise JWT, OAuth access tokens)
 * are always bearer tokens. A token source is asked again, once, after a 401.
 */

/** Returns a current access token (for example from an OAuth refresh); called again after a 401. */
export type TokenSource = () => string | Promise<string>;

export interface Credentials {
  /** An API key (`s224_…`). */
  apiKey?: string;
  /** A fixed bearer token: an Enterprise JWT or an OAuth access token. */
  bearerToken?: string;
  /** Where to get a bearer token; called at first use and again when the service answers 401. */
  tokenSource?: TokenSource;
}

export type Generation = 'v1' | 'v2';

export class Authorizer {
  private token: string | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly credentials: Credentials) {
    const given = (['apiKey', 'bearerToken', 'tokenSource'] as const).filter((k) => credentials[k] !== undefined);
    if (given.length !== 1) throw new TypeError('pass exactly one of apiKey, bearerToken or tokenSource');
    if (credentials.apiKey !== undefined && (typeof credentials.apiKey !== 'string' || credentials.apiKey === '')) {
      throw new TypeError('apiKey must be a non-empty string');
    }
    if (credentials.bearerToken !== undefined && (typeof credentials.bearerToken !== 'string' || credentials.bearerToken === '')) {
      throw new TypeError('bearerToken must be a non-empty string');
    }
    if (credentials.tokenSource !== undefined && typeof credentials.tokenSource !== 'function') {
      throw new TypeError('tokenSource must be a function returning a token');
    }
  }

  /** True when a 401 may be cured by asking the token source again. */
  get refreshable(): boolean {
    return this.credentials.tokenSource !== undefined;
  }

  /** The header carrying the credential for a request of `generation`, and the token it used. */
  async header(generation: Generation): Promise<{ name: string; value: string; token: string }> {
    const { apiKey } = this.credentials;
    if (apiKey !== undefined) {
      return generation === 'v2'
        ? { name: 'X-API-Key', value: apiKey, token: apiKey }
        : { name: 'Authorization', value: `Bearer ${apiKey}`, token: apiKey };
    }
    const token = await this.currentToken();
    return { name: 'Authorization', value: `Bearer ${token}`, token };
  }

  /**
   * Forget `usedToken` so the next request asks the source again. Requests that failed together
   * with the same token cause one refresh, not one each.
   */
  invalidate(usedToken: string): void {
    if (this.token === usedToken) this.token = undefined;
  }

  /**
   * The credential the realtime interfaces accept: only API keys, in the `api_key` query
   * parameter (docs/api.md "Authentication"; the handshake authenticates as an API key).
   */
  realtimeKey(): string {
    const key = this.credentials.apiKey ?? this.credentials.bearerToken;
    if (key === undefined || !key.startsWith('s224_')) {
      throw new TypeError('WebSocket and socket.io connections authenticate with an API key only; construct the client with apiKey');
    }
    return key;
  }

  private currentToken(): Promise<string> {
    if (this.credentials.bearerToken !== undefined) return Promise.resolve(this.credentials.bearerToken);
    if (this.token !== undefined) return Promise.resolve(this.token);
    this.pending ??= (async () => {
      try {
        const token = await this.credentials.tokenSource!();
        if (typeof token !== 'string' || token === '') throw new TypeError('tokenSource must return a non-empty string');
        this.token = token;
        return token;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }
}
