import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { installTripwire } from './helpers.js';

/** The safety net of the SSRF tests must itself work on every supported Node version. */
describe('tripwire', () => {
  const tripwire = installTripwire();
  afterAll(() => tripwire.dispose());

  const refusal = (socket: Socket): Promise<string> =>
    new Promise((resolve) => {
      socket.on('error', (err) => resolve(err.message));
      socket.on('connect', () => resolve('connected'));
    });

  it('destroys a dial to a literal non-loopback address before it leaves the machine', async () => {
    tripwire.reset();
    const message = await refusal(connect({ host: '10.255.255.1', port: 9 }));
    expect(message).toBe('tripwire: refused to dial a non-loopback address');
    expect(tripwire.dials).toEqual(['10.255.255.1']);
    expect(tripwire.blocked).toEqual(['10.255.255.1']);
  });

  it('destroys a dial to a name that resolves to a non-loopback address', async () => {
    tripwire.reset();
    const socket = connect({
      host: 'elsewhere.test',
      port: 9,
      // Answers in the shape net asks for: an array when autoSelectFamily is on (the default).
      lookup: (_name, options, callback) => {
        const reply = callback as (err: null, address: string | Array<{ address: string; family: number }>, family?: number) => void;
        if (options.all === true) reply(null, [{ address: '192.0.2.7', family: 4 }]);
        else reply(null, '192.0.2.7', 4);
      },
    });
    expect(await refusal(socket)).toBe('tripwire: refused to dial a non-loopback address');
    expect(tripwire.blocked).toEqual(['192.0.2.7']);
  });

  it('lets loopback through and records it', async () => {
    tripwire.reset();
    const socket = connect({ host: '127.0.0.1', port: 9 });
    const outcome = await refusal(socket);
    socket.destroy();
    expect(outcome).not.toContain('tripwire');
    expect(tripwire.dials).toEqual(['127.0.0.1']);
    expect(tripwire.blocked).toEqual([]);
  });
});
