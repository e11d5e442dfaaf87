/**
 * One suite, run on each replicated topology (cluster.test.ts, sentinel.test.ts): 2 API nodes and
 * 2 workers (real processes) on it; sync and async jobs, limits exact across the nodes, socket.io
 * pushes and the completion channel; then, under steady load, the master holding the queue's slot
 * is SIGKILLed: no acknowledged job lost or failed, no wrong digest, every refusal a 503 with
 * Retry-After, service back within 10 s, the same workers consuming again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { ROOT, spawnNode } from '../helpers/spawn.js';
import { sha224Hex } from '../helpers/digests.js';
import type { RedisTopologyUnderTest } from '../helpers/redis-topology.js';
import { stallFor, waitFor } from '../helpers/wait.js';
import { connectSocketIo, emitWithAck } from '../realtime/clients.js';

const QUOTA = 30;

interface Sent {
  kind: 'sync' | 'async';
  node: number;
  data: string;
  startedAt: number;
  endedAt: number;
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

export function describeFailover(name: string, start: () => Promise<RedisTopologyUnderTest>): void {
  describe(`${name}: 2 API nodes and 2 workers, then its master killed under load`, () => {
    let topology: RedisTopologyUnderTest | undefined;
    let c: Cluster;
    const prefix = `{rt${process.pid}}`;
    const planFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-plans-')), 'plans.json');
    const auth = (): Record<string, string> => ({ 'x-api-key': c.keys.production, 'content-type': 'application/json' });

    beforeAll(async () => {
      fs.writeFileSync(planFile, JSON.stringify({ plans: { pro: { v2PerSecond: null, dailyQuota: QUOTA } } }));
      topology = await start();
      // No worker yet: the push test submits while none runs. Every job goes through the queue.
      c = await startCluster({
        apiNodes: 2,
        workers: 0,
        redisEnv: { env: topology.env, prefix },
        env: {
          PLANS_FILE: planFile,
          INLINE_MAX_BYTES: '0',
          LIMITER_TIMEOUT_MS: '5000',
          ...(process.env.DEBUG_FAILOVER ? { LOG_LEVEL: 'debug' } : {}),
        },
      });
    }, 90_000);
    afterAll(async () => {
      await c?.close();
      await topology?.stop();
      fs.rmSync(path.dirname(planFile), { recursive: true, force: true });
    });

    const post = async (node: number, route: string, body: unknown, headers = auth()): Promise<Omit<Sent, 'kind' | 'data' | 'node'>> => {
      const startedAt = Date.now();
      const res = await fetch(`${c.url(node)}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await res.text();
      return {
        startedAt,
        endedAt: Date.now(),
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: JSON.parse(text) as Record<string, unknown>,
      };
    };
    const jobOf = async (id: string): Promise<Record<string, unknown>> =>
      (await (await fetch(`${c.url(1)}/v2/jobs/${id}`, { headers: auth() })).json()) as Record<string, unknown>;

    it('an async job is pushed over socket.io to clients on both nodes once a worker starts', async () => {
      const submitted = await post(0, '/v2/batch?async=true', { items: [{ id: 'a', data: 'pushed' }] });
      expect(submitted.status).toBe(202);
      const jobId = submitted.body.job_id as string;
      const sockets = [
        await connectSocketIo(c.url(1), { api_key: c.keys.production }),
        await connectSocketIo(c.url(0), { api_key: c.keys.production }),
      ];
      const events = new Map<Socket, unknown[]>(sockets.map((s) => [s, []]));
      for (const [socket, list] of events) socket.on('job', (body: unknown) => list.push(body));
      for (const socket of sockets)
        expect(await emitWithAck(socket, 'subscribe', jobId)).toMatchObject({ success: true, job_id: jobId, status: 'queued' });
      await Promise.all([c.addWorker(), c.addWorker()]);
      await waitFor(() => sockets.every((s) => events.get(s)!.length > 0), { timeoutMs: 20_000, what: 'the job push on both nodes' });
      for (const socket of sockets) {
        expect(events.get(socket)).toHaveLength(1);
        expect(events.get(socket)![0]).toMatchObject({
          job_id: jobId,
          status: 'completed',
          results: [{ id: 'a', hash: sha224Hex('pushed') }],
        });
        socket.disconnect();
      }
    }, 60_000);

    it('sync jobs (answered on the completion channel) and async jobs (read from the other node) give the right digests', async () => {
      const inputs = Array.from({ length: 20 }, (_, i) => `sync ${i} ${name}`);
      const answers = await Promise.all(inputs.map((data, i) => post(i % 2, '/v2/hash', { data })));
      answers.forEach((answer, i) => expect([answer.status, answer.body.hash]).toEqual([200, sha224Hex(inputs[i]!)]));
      const submitted = await post(0, '/v2/batch?async=true', { items: [{ id: 'x', data: 'async one' }] });
      expect(submitted.status).toBe(202);
      const job = await waitFor(async () => {
        const polled = await jobOf(submitted.body.job_id as string);
        return polled.status === 'completed' && polled;
      });
      expect(job.results).toEqual([{ id: 'x', hash: sha224Hex('async one') }]);
    }, 60_000);

    it('the admin CLI opens the same topology from the same settings', async () => {
      const admin = spawnNode('admin', [path.join(ROOT, 'dist', 'admin.js'), 'queues'], c.env);
      expect(await admin.exited, admin.output()).toBe(0);
      expect(admin.output()).toMatch(new RegExp(`queue: Redis (cluster|sentinel) .*\\(prefix \\{rt${process.pid}\\}\\)`));
      expect(admin.output()).toMatch(/\bbatch\b/);
    }, 30_000);

    it(`a daily quota of ${QUOTA} is exact across the two API nodes`, async () => {
      const key = await c.newKey({ plan: 'pro' });
      const headers = { 'x-api-key': key, 'content-type': 'application/json' };
      const answers = await Promise.all(Array.from({ length: QUOTA + 10 }, (_, i) => post(i % 2, '/v2/hash', { data: `q${i}` }, headers)));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(QUOTA);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    }, 60_000);

    it('SIGKILL of the master holding the queue: no acknowledged job lost, every refusal 503 + Retry-After, back within 10 s, workers resume', async () => {
      const topo = topology!;
      const workerPids = c.workers.map((w) => w.pid);
      const sent: Sent[] = [];
      let stop = false;
      let counter = 0;
      const loop = async (lane: number): Promise<void> => {
        while (!stop) {
          const i = counter++;
          const kind = i % 3 === 0 ? 'async' : 'sync';
          const data = `load ${i} ${lane}`;
          const answer =
            kind === 'sync'
              ? await post(i % 2, '/v2/hash', { data })
              : await post(i % 2, '/v2/batch?async=true', { items: [{ id: 'x', data }] });
          sent.push({ kind, node: i % 2, data, ...answer });
        }
      };
      const lanes = Array.from({ length: 6 }, (_, lane) => loop(lane));
      // However the steps below end, the load stops before the cluster does (else its requests
      // would fail against closed nodes after the test).
      const stopLoad = async (): Promise<void> => {
        stop = true;
        await Promise.allSettled(lanes);
      };
      const { killedAt, oldPort, newPort, promotedAt } = await (async () => {
        await stallFor(1500); // the input: steady load before the kill
        const killed = Date.now();
        const old = await topo.killMasterOf(prefix);
        const promoted = await topo.waitForNewMaster(prefix, old);
        return { killedAt: killed, oldPort: old, newPort: promoted, promotedAt: Date.now() };
      })().catch(async (err: unknown) => {
        await stopLoad();
        throw err;
      });
      // Load goes on until both nodes have answered requests sent 2 s after the promotion.
      const goodOn = (node: number): boolean =>
        sent.some((s) => s.node === node && s.startedAt > promotedAt + 2000 && (s.status === 200 || s.status === 202));
      await waitFor(() => goodOn(0) && goodOn(1), { timeoutMs: 30_000, what: 'both nodes to answer after the promotion' }).finally(
        async () => {
          await stopLoad();
          if (process.env.DEBUG_FAILOVER)
            for (const api of c.apis)
              console.log(
                api
                  .output()
                  .split('\n')
                  .filter((l) => /failover|redis|"level":[45]0/i.test(l))
                  .slice(-40)
                  .join('\n'),
              );
        },
      );
      await Promise.all(lanes);

      const refused = sent.filter((s) => s.status !== 200 && s.status !== 202);
      const after = sent.filter((s) => s.startedAt >= killedAt);
      // Service back: every request sent after the last refused one succeeded; the moment is the
      // first answer to such a request (its wait counts, not only its sending).
      const lastRefusedSent = Math.max(killedAt, ...refused.map((s) => s.startedAt));
      const backMs = Math.min(...sent.filter((s) => s.startedAt > lastRefusedSent).map((s) => s.endedAt)) - killedAt;
      const slowest = Math.max(...after.map((s) => s.endedAt - s.startedAt));
      const lastRefusalOn = [0, 1].map((node) => Math.max(0, ...refused.filter((s) => s.node === node).map((s) => s.endedAt - killedAt)));
      console.log(
        `[${name}] ${sent.length} requests, master :${oldPort} killed → :${newPort} promoted after ${promotedAt - killedAt} ms; ` +
          `${refused.length} refused (503; the last on node A/B ${lastRefusalOn.join('/')} ms after the kill), ` +
          `service back ${backMs} ms after the kill, slowest answer ${slowest} ms`,
      );
      for (const s of refused)
        console.log(
          `[${name}]   refused: ${s.kind} on node ${s.node}, sent ${s.startedAt - killedAt} ms after the kill, answered ${s.endedAt - killedAt} ms, ${JSON.stringify(s.body.error)}`,
        );
      expect([0, 1].map((node) => sent.some((s) => s.node === node && s.startedAt > lastRefusedSent))).toEqual([true, true]);

      expect(refused.map((s) => [s.status, s.retryAfter !== null && Number(s.retryAfter) > 0])).toEqual(refused.map(() => [503, true]));
      for (const s of refused) expect((s.body.error as { code?: string } | undefined)?.code).toBe('SERVICE_UNAVAILABLE');
      expect(backMs).toBeLessThan(10_000);
      const wrong = sent.filter((s) => s.kind === 'sync' && s.status === 200 && s.body.hash !== sha224Hex(s.data));
      expect(wrong).toEqual([]);

      // Every accepted async job completes with the right digest, on the same workers.
      const accepted = sent.filter((s) => s.kind === 'async' && s.status === 202);
      const results = new Map<string, Record<string, unknown>>();
      await waitFor(
        async () => {
          const pending = accepted.filter((s) => results.get(s.body.job_id as string)?.status !== 'completed');
          await Promise.all(
            pending.slice(0, 50).map(async (s) => results.set(s.body.job_id as string, await jobOf(s.body.job_id as string))),
          );
          return pending.length === 0;
        },
        { timeoutMs: 45_000, intervalMs: 250, what: 'every accepted async job to complete' },
      );
      const lostOrWrong = accepted.filter(
        (s) => JSON.stringify(results.get(s.body.job_id as string)?.results) !== JSON.stringify([{ id: 'x', hash: sha224Hex(s.data) }]),
      );
      console.log(`[${name}] ${accepted.length} async jobs accepted, ${lostOrWrong.length} lost or wrong`);
      expect(lostOrWrong).toEqual([]);
      expect(c.workers.map((w) => [w.pid, w.child.exitCode, w.child.signalCode])).toEqual(workerPids.map((pid) => [pid, null, null]));
      const fresh = await post(1, '/v2/hash', { data: 'after the failover' });
      expect([fresh.status, fresh.body.hash]).toEqual([200, sha224Hex('after the failover')]);
    }, 110_000);
  });
}
