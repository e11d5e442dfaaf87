/** The sweep's settings: defaults, and refusals that name the setting (shared/config.ts). */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.js';

describe('BLOB_SWEEP_INTERVAL_SECONDS and BLOB_SWEEP_GRACE_SECONDS', () => {
  it('default to 300 and 3600; 0 turns the sweep off', () => {
    expect(loadConfig({})).toMatchObject({ BLOB_SWEEP_INTERVAL_SECONDS: 300, BLOB_SWEEP_GRACE_SECONDS: 3600 });
    expect(loadConfig({ BLOB_SWEEP_INTERVAL_SECONDS: '0', BLOB_SWEEP_GRACE_SECONDS: '60' })).toMatchObject({
      BLOB_SWEEP_INTERVAL_SECONDS: 0,
      BLOB_SWEEP_GRACE_SECONDS: 60,
    });
  });

  it('refuses values out of range with a message naming the setting', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ BLOB_SWEEP_INTERVAL_SECONDS: '-1' }, 'BLOB_SWEEP_INTERVAL_SECONDS: must be 0 (no sweep) or more seconds'],
      [{ BLOB_SWEEP_INTERVAL_SECONDS: '2.5' }, 'BLOB_SWEEP_INTERVAL_SECONDS: must be a whole number of seconds'],
      [{ BLOB_SWEEP_INTERVAL_SECONDS: '86401' }, 'BLOB_SWEEP_INTERVAL_SECONDS: must be at most 86400 (a day)'],
      [
        { BLOB_SWEEP_GRACE_SECONDS: '59' },
        'BLOB_SWEEP_GRACE_SECONDS: must be at least 60, so an upload is never swept between its storing and its enqueue',
      ],
    ];
    for (const [env, message] of cases) expect(() => loadConfig(env)).toThrow(`Invalid configuration: ${message}`);
  });
});
