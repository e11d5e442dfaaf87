/**
 * Headers every response carries, set by each listener before any handler runs (api/server.ts),
 * so responses written by Express, socket.io's engine and raw-socket refusals
 * (api/http/raw-response.ts) all have them. `nosniff`: a browser must never run a response as
 * something other than its declared type (Fetch standard, X-Content-Type-Options).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };
