/**
 * Verifying a webhook sent by sha224d (Standard Webhooks 1.0, `v1` signatures): the HMAC-SHA256,
 * keyed with the base64 part of the `whsec_…` secret, of `{webhook-id}.{webhook-timestamp}.{body}`
 * must match one of the `v1,` entries of `webhook-signature` (two during a secret rotation), and
 * the timestamp must be within the tolerance (5 minutes) of now. Web Crypto only, so it runs in
 * Node 20+, Deno, Bun and edge runtimes alike. Pass the raw body exactly as received.
 */

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyWebhookOptions {
  /** Seconds either way; default 300. */
  toleranceSeconds?: number;
  /** Default: Date.now(). */
  now?: number;
}

/** A fetch `Headers`, Node's `IncomingHttpHeaders`, or any plain object of header names to values. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The parsed event of a webhook sent by sha224d. */
export interface WebhookEvent {
  type: 'job.completed' | 'job.failed' | 'webhook.test';
  timestamp: string;
  data: {
    job_id?: string;
    kind?: string;
    status?: 'completed' | 'failed';
    hash?: string;
    size?: number;
    count?: number;
    error?: { code: string; message: string; details?: string };
    message?: string;
  };
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  for (const [key, value] of Object.entries(record)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function base64ToBytes(value: string): Uint8Array {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Checks the signature and timestamp and returns the parsed event; throws WebhookVerificationError
 * otherwise. `body` is the raw request body (a string or its bytes), not a re-serialised object.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new WebhookVerificationError('Timestamp outside the tolerance');

  let key: Uint8Array;
  try {
    key = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError('The secret is not whsec_ + base64');
  }
  const bodyBytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + bodyBytes.length);
  signed.set(prefix);
  signed.set(bodyBytes, prefix.length);
  const hmacKey = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, signed));

  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || value === undefined) continue;
    let given: Uint8Array;
    try {
      given = base64ToBytes(value);
    } catch {
      continue;
    }
    if (equal(given, expected)) {
      const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
      return JSON.parse(text) as WebhookEvent;
    }
  }
  throw new WebhookVerificationError('No matching signature');
}
