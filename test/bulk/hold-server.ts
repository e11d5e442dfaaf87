/**
 * A loopback web server for URL bulk jobs: `/<n>` answers `fast /<n>` at once; `/hold-<name>` is
 * held the first time it is asked for, until the test releases it, and answered `held` at once
 * after that (a takeover asks again). `arrived(name)` resolves when the first ask is in, so a test
 * knows a worker sits inside that URL's chunk.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldServer {
  base: string;
  url(n: number): string;
  holdUrl(name: string): string;
  arrived(name: string): Promise<void>;
  release(name: string): void;
  close(): void;
}

interface Hold {
  arrived: Promise<void>;
  signalArrived: () => void;
  released: Promise<void>;
  release: () => void;
  asked: boolean;
}

function newHold(): Hold {
  let signalArrived!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (signalArrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return { arrived, signalArrived, released, release, asked: false };
}

export const fastBody = (n: number): string => `fast /${n}`;
export const sha224Of = (text: string): string => createHash('sha224').update(text).digest('hex');

export async function startHoldServer(): Promise<HoldServer> {
  const holds = new Map<string, Hold>();
  const holdOf = (name: string): Hold => {
    let hold = holds.get(name);
    if (hold === undefined) holds.set(name, (hold = newHold()));
    return hold;
  };
  const web = http.createServer((req, res) => {
    const match = /^\/hold-(.+)$/.exec(req.url ?? '');
    if (match === null) return void res.end(fastBody(Number(req.url?.slice(1))));
    const hold = holdOf(match[1]!);
    if (hold.asked) return void res.end('held');
    hold.asked = true;
    hold.signalArrived();
    void hold.released.then(() => res.end('held'));
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  return {
    base,
    url: (n) => `${base}/${n}`,
    holdUrl: (name) => `${base}/hold-${name}`,
    arrived: (name) => holdOf(name).arrived,
    release: (name) => holdOf(name).release(),
    close() {
      for (const hold of holds.values()) hold.release();
      web.closeAllConnections();
      web.close();
    },
  };
}
