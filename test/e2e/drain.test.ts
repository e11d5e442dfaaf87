/**
 * A drain under keep-alive load: two API nodes, a client keeping several keep-alive connections
 * busy with /v2/hash, and SIGTERM sent to one node mid-load. The client retries a request only
 * when its connection was refused (ECONNREFUSED: nothing was sent, so nothing can have been
 * done), then on the other node. Any other error — a reset, a socket closed before the answer —
 * counts as a failed request: the drain (api/server.ts) must tell keep-alive clients to stop
 * reusing a connection (`Connection: close`, RFC 9112 §9.6) before it closes it, never close one
 * a request may be arriving on.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { sha224Hex } from '../helpers/digests.js';
import { waitFor } from '../helpers/wait.js';

/** Client loops, each one request at a time; the first LOOPS_ON_VICTIM start on the node that is stopped. */
const LOOPS = 12;
const LOOPS_ON_VICTIM = 8;
const ROUNDS = 3;

describe('drain under keep-alive load', () => {
  let cluster: Cluster | undefined;
  const agent = new Agent({ connections: LOOPS });
  afterAll(async () => {
    await cluster?.close();
    await agent.close();
  });

  it(`SIGTERM to a busy API node, ${ROUNDS} times: every request is answered 200 with its digest, refused connections retried elsewhere`, async () => {
    cluster = await startCluster({ apiNodes: 2, workers: 0 });
    const c = cluster;
    // The node each loop sends to; a refused connection moves the loop to the current other node.
    const nodes = [c.url(0), c.url(1)];
    const target: number[] = Array.from({ length: LOOPS }, (_, i) => (i < LOOPS_ON_VICTIM ? 0 : 1));
    let answered = 0;
    let refused = 0;
    const failures: string[] = [];
    let stop = false;

    const hashOnce = async (loop: number): Promise<void> => {
      const data = randomBytes(32).toString('hex');
      for (;;) {
        const node = target[loop]!;
        try {
          const res = await request(`${nodes[node]!}/v2/hash`, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
            body: JSON.stringify({ data }),
            headersTimeout: 15_000,
            bodyTimeout: 15_000,
          });
          const body = (await res.body.json()) as { hash?: string };
          if (res.statusCode === 200 && body.hash === sha224Hex(data)) answered++;
          else failures.push(`node ${node}: ${res.statusCode} ${JSON.stringify(body)}`);
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED') {
            refused++;
            target[loop] = 1 - node;
            continue;
          }
          failures.push(`node ${node}: ${(err as Error).name} ${(err as NodeJS.ErrnoException).code ?? ''} ${(err as Error).message}`);
          return;
        }
      }
    };
    const load = Promise.all(
      Array.from({ length: LOOPS }, async (_, loop) => {
        while (!stop) await hashOnce(loop);
      }),
    );

    const procs = [c.apis[0]!, c.apis[1]!];
    const exits: Array<number | null> = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        // The nodes take turns being stopped; a fresh node takes the stopped one's place.
        const victim = round % 2;
        target.forEach((_, loop) => (target[loop] = loop < LOOPS_ON_VICTIM ? victim : 1 - victim));
        const before = answered;
        await waitFor(() => answered >= before + 300, { timeoutMs: 20_000, what: 'load on both nodes' });
        exits.push(await procs[victim]!.stop('SIGTERM'));
        const fresh = await c.addApi();
        procs[victim] = fresh.proc;
        nodes[victim] = fresh.url;
      }
      const before = answered;
      await waitFor(() => answered >= before + 300, { timeoutMs: 20_000, what: 'load after the last drain' });
    } finally {
      stop = true;
      await load;
    }
    console.log(
      `drain: ${answered} answered, ${refused} refused connections retried, ${failures.length} failed\n${failures.slice(0, 5).join('\n')}`,
    );
    expect(exits).toEqual(Array.from({ length: ROUNDS }, () => 0));
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThanOrEqual(ROUNDS * 300 + 300);
  }, 120_000);
});
