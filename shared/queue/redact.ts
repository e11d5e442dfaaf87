/**
 * What operator tools (the admin CLI's `jobs get`, the queue UI) show of a job's data. Payloads
 * carry callers' inputs and secrets (an HMAC key, a URL's query string), which an operator has no
 * need to read (docs/decisions.md "Operating"): inputs become their size, keys disappear, URLs
 * keep their origin and path.
 */

/** A copy of a job's data ({ kind, accountId, payload }) with the payload redacted; anything else is returned as is. */
export function redactJobData(data: unknown): unknown {
  if (!isRecord(data) || !isRecord(data.payload)) return data;
  return { ...data, payload: redactPayload(data.payload) };
}

export function redactPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(payload)) {
    switch (field) {
      case 'data':
        out[field] = typeof value === 'string' ? `[${plural(value.length, 'character')}]` : '[redacted]';
        break;
      case 'key':
        out[field] = '[redacted]';
        break;
      case 'items':
        out[field] = Array.isArray(value) ? `[${plural(value.length, 'item')}]` : '[redacted]';
        break;
      case 'url':
        out[field] = typeof value === 'string' ? originAndPath(value) : '[redacted]';
        break;
      default:
        out[field] = value;
    }
  }
  return out;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function originAndPath(value: string): string {
  if (!URL.canParse(value)) return '[redacted]';
  const url = new URL(value);
  return `${url.origin}${url.pathname}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
