import { describe, expect, it } from 'vitest';
import { WsHashMessage } from '../../api/schemas/ws.js';
import { checkWsHashFast } from '../../api/schemas/ws-fast.js';

// The fast check may only take messages the schema takes, and must yield what the schema yields.
const MESSAGES: object[] = [
  { action: 'hash', id: '1', data: 'hello' },
  { action: 'hash', id: '1', data: '', extra: true },
  { action: 'hash', id: 'x'.repeat(256), data: 'abcd', options: { encoding: 'hex', output: 'base64' } },
  { action: 'hash', id: 'x'.repeat(257), data: 'a' },
  { action: 'hash', id: '', data: 'a' },
  { action: 'hash', data: 'a' },
  { action: 'hash', id: 7, data: 'a' },
  { action: 'hash', id: '1', data: 5 },
  { action: 'hash', id: '1', data: 'zz', options: { encoding: 'hex' } },
  { action: 'hash', id: '1', data: 'ab-_', options: { encoding: 'base64', output: 'binary' } },
  { action: 'hash', id: '1', data: 'a', options: { encoding: 'latin1' } },
  { action: 'hash', id: '1', data: 'a', options: { output: 'HEX' } },
  { action: 'hash', id: '1', data: 'a', options: null },
  { action: 'hash', id: '1', data: 'a', options: [] },
  { action: 'hash', id: '1', data: 'a', options: {} },
  { action: 'hash', id: '1', data: 'a', options: { encoding: null } },
  { action: 'Hash', id: '1', data: 'a' },
];

describe('/v2/ws fast message check', () => {
  it.each(MESSAGES.map((m) => [JSON.stringify(m), m] as const))('%s: same as the schema or deferred to it', (_, message) => {
    const fast = checkWsHashFast(message);
    const schema = WsHashMessage.safeParse(message);
    if (fast !== undefined) expect(schema.success && schema.data).toEqual(fast);
    else if (schema.success) expect.fail('each accepted message here is a common one the fast check should take');
  });

  it('takes the common message without the schema', () => {
    expect(checkWsHashFast({ action: 'hash', id: 'a', data: 'hi', options: { output: 'base64' } })).toEqual({
      id: 'a',
      input: { data: 'hi', encoding: 'utf8', bytes: 2 },
      output: 'base64',
    });
  });
});
