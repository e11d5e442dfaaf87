import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AddressDeniedError, guardLookup } from '../../shared/net/guarded-connect.js';
import { fakeLookup } from './helpers.js';

interface Answer {
  err: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family: number | undefined;
}

function ask(lookup: LookupFunction, hostname: string, all: boolean): Promise<Answer> {
  return new Promise((resolve) => {
    lookup(hostname, all ? { all: true } : {}, (err, address, family) => resolve({ err, address, family }));
  });
}

describe('guardLookup', () => {
  const dns = fakeLookup({
    'public.test': ['8.8.8.8', '2606:4700:4700::1111'],
    'loopback.test': '127.0.0.1',
    'mixed.test': ['8.8.8.8', '10.0.0.1'],
    'mapped.test': '::ffff:169.254.169.254',
    'cgnat.test': '100.64.0.1',
    'ula.test': 'fd00::1',
    'empty.test': [],
  });

  it('answers in the shape asked for: one address, or all of them', async () => {
    const guarded = guardLookup({}, dns);
    expect(await ask(guarded, 'public.test', false)).toEqual({ err: null, address: '8.8.8.8', family: 4 });
    expect(await ask(guarded, 'public.test', true)).toEqual({
      err: null,
      address: [
        { address: '8.8.8.8', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
      family: undefined,
    });
  });

  it.each([
    ['loopback.test', 'loopback'],
    ['mixed.test', 'private'],
    ['mapped.test', 'cloud-metadata'],
    ['cgnat.test', 'cgnat'],
    ['ula.test', 'unique-local'],
  ])('refuses %s (%s) in both shapes, without naming the address', async (name, rule) => {
    const guarded = guardLookup({}, dns);
    for (const all of [false, true]) {
      const { err } = await ask(guarded, name, all);
      expect(err).toBeInstanceOf(AddressDeniedError);
      expect((err as AddressDeniedError).rule).toBe(rule);
      expect(err?.message).toBe(`destination address denied by SSRF policy (${rule})`);
    }
  });

  it('honours allowLoopback only for 127.0.0.1', async () => {
    const guarded = guardLookup({ allowLoopback: true }, fakeLookup({ a: '127.0.0.1', b: ['127.0.0.1', '::1'] }));
    expect((await ask(guarded, 'a', false)).err).toBeNull();
    expect((await ask(guarded, 'b', true)).err).toBeInstanceOf(AddressDeniedError);
  });

  it('passes resolver errors through and turns an empty answer into ENOTFOUND', async () => {
    const guarded = guardLookup({}, dns);
    expect((await ask(guarded, 'nowhere.test', false)).err?.code).toBe('ENOTFOUND');
    expect((await ask(guarded, 'empty.test', true)).err?.code).toBe('ENOTFOUND');
  });

  it('always asks the inner resolver for every answer', async () => {
    const seen: unknown[] = [];
    const inner: LookupFunction = (_h, options, cb) => {
      seen.push(options.all);
      cb(null, [{ address: '8.8.8.8', family: 4 }]);
    };
    await ask(guardLookup({}, inner), 'x', false);
    expect(seen).toEqual([true]);
  });
});
