/**
 * Does what a command printed match the answer its documentation shows? The docs write answers as
 * readers read them, so the comparison follows the same conventions:
 *   - `…` elides: `"…"` is any value, `"23097d22…"` any string with that prefix (or suffix or
 *     infix), a bare `…` value is any value, and `,…}` / `{…}` allow more keys;
 *   - values that differ on every run are compared by type only: timestamps, ids, tokens, counters
 *     and durations (VOLATILE below);
 *   - a leading status code (`# 400 {…}`) is the reader's note of what `curl -s` does not print;
 *   - anything else must be equal: keys, strings, numbers, booleans, array lengths.
 * A non-JSON answer (a status code, a URL) is a pattern in which `…` matches anything.
 */

/** Keys whose values change from run to run. */
export const VOLATILE = new Set([
  'timestamp',
  'resetTime',
  'reset',
  'exp',
  'iat',
  'processing_time_ms',
  'used',
  'remaining',
  'requests_today',
  'expires_in',
  'job_id',
  'status_url',
  'client_id',
  'sub',
  'access_token',
  'refresh_token',
]);

const ANY = '⟨any⟩';
const MORE = '⟨more⟩';
const GLOB = '⟨glob⟩';

/** The answer as JSON with sentinels for the elisions, or undefined when it is not JSON. */
export function parseAnswer(text: string): unknown {
  // Elisions outside strings first, so that a quote pair never spans them.
  const prepared = text
    .replace(/\{\s*…\s*\}/g, `{"${MORE}":1}`)
    .replace(/,\s*…\s*\}/g, `,"${MORE}":1}`)
    .replace(/,\s*…\s*\]/g, `,"${MORE}"]`)
    .replace(/:\s*…(?=\s*[,}\]])/g, `:"${ANY}"`)
    .replace(/"([^"\\]*…[^"\\]*)"/g, (_m, inner: string) => JSON.stringify(inner === '…' ? ANY : GLOB + inner));
  try {
    return JSON.parse(prepared) as unknown;
  } catch {
    return undefined;
  }
}

function globMatches(pattern: string, actual: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('…')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*')}$`,
  );
  return re.test(actual);
}

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Differences between `expected` (with sentinels) and `actual`, as `path: reason` lines. */
export function compareAnswer(expected: unknown, actual: unknown, at = '$', key = ''): string[] {
  if (expected === ANY) return [];
  if (VOLATILE.has(key))
    return kind(expected) === kind(actual) || typeof expected === 'string'
      ? []
      : [`${at}: expected a ${kind(expected)}, got ${JSON.stringify(actual)}`];
  if (typeof expected === 'string' && expected.startsWith(GLOB)) {
    return typeof actual === 'string' && globMatches(expected.slice(GLOB.length), actual)
      ? []
      : [`${at}: ${JSON.stringify(actual)} does not match "${expected.slice(GLOB.length)}"`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`];
    const open = expected.at(-1) === MORE;
    const items = open ? expected.slice(0, -1) : expected;
    if (open ? actual.length < items.length : actual.length !== items.length)
      return [`${at}: expected ${items.length}${open ? '+' : ''} items, got ${actual.length}`];
    return items.flatMap((e, i) => compareAnswer(e, actual[i], `${at}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    const exp = expected as Record<string, unknown>;
    const act = actual as Record<string, unknown>;
    const problems = Object.keys(exp)
      .filter((k) => k !== MORE)
      .flatMap((k) => (k in act ? compareAnswer(exp[k], act[k], `${at}.${k}`, k) : [`${at}.${k}: missing`]));
    if (!(MORE in exp)) for (const k of Object.keys(act)) if (!(k in exp)) problems.push(`${at}.${k}: not in the documented answer`);
    return problems;
  }
  return Object.is(expected, actual) ? [] : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** Checks one printed output against one documented answer; returns the problems found. */
export function checkAnswer(answer: string, printed: string): string[] {
  const output = printed.trim();
  const body = answer.replace(/^\d{3}\s+(?=[{[])/, '');
  if (/^[{[]/.test(body)) {
    const expected = parseAnswer(body);
    if (expected === undefined) return [`the documented answer is not JSON: ${answer}`];
    let actual: unknown;
    try {
      actual = JSON.parse(output);
    } catch {
      return [`printed text is not JSON: ${JSON.stringify(output.slice(0, 300))}`];
    }
    return compareAnswer(expected, actual);
  }
  return globMatches(body, output) ? [] : [`printed ${JSON.stringify(output.slice(0, 300))}, documented ${JSON.stringify(body)}`];
}

/** Every top-level JSON object or array in `text` (several may share a line: curl adds no newline). */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let start = -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"' && depth > 0) inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth += 1;
    } else if ((c === '}' || c === ']') && depth > 0) {
      depth -= 1;
      if (depth === 0) {
        try {
          values.push(JSON.parse(text.slice(start, i + 1)) as unknown);
        } catch {
          // Not JSON (prose with brackets): skipped.
        }
      }
    }
  }
  return values;
}

/** An error envelope of either generation: v2 `success: false`, v1 `{error: {…}}`. */
export function isErrorEnvelope(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return v.success === false || (typeof v.error === 'object' && v.error !== null);
}
