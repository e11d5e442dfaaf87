import { describe, expect, it } from 'vitest';
import { isoMillis, isoMillisAt } from '../../shared/time.js';

// Realtime replies format their timestamp once per millisecond; the string must be the one a Date gives.
describe('isoMillisAt', () => {
  it('formats each millisecond as Date#toISOString does, reused within the millisecond', () => {
    const at = Date.UTC(2026, 10, 21, 12, 0, 0, 123);
    for (const ms of [at, at, at + 1, at, at + 999, at + 86_400_000, 0]) {
      expect(isoMillisAt(ms)).toBe(new Date(ms).toISOString());
      expect(isoMillisAt(ms)).toBe(isoMillis(new Date(ms)));
    }
    expect(isoMillisAt(at + 1)).toBe('2026-11-21T12:00:00.124Z');
  });
});
