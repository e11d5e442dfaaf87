/**
 * An error answered in the OAuth envelope {error, error_description} (RFC 6749 §5.2) by
 * ./errors.ts: a module of its own, free of @node-oauth/oauth2-server, so that the route table's
 * form checks (./form-checks.ts) do not load the library (docs/decisions.md "Cold start").
 */

/** The realm of every Basic challenge this service sends (RFC 7617 §2). */
export const BASIC_CHALLENGE = 'Basic realm="sha224d"';

/** An error answered in the OAuth envelope, raised outside the library (client authentication, revocation, introspection). */
export class OAuthEndpointError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    /** Set on a 401 for a client that tried HTTP Basic (RFC 6749 §5.2: the challenge is then required). */
    readonly challenge?: string,
  ) {
    super(description);
  }
}
