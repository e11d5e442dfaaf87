/**
 * deploy/k8s: every manifest validates against the Kubernetes (and KEDA) schemas with no unknown
 * field, and the objects agree with each other and with the service: names referenced exist,
 * probes hit real ports and the right paths, the shutdown grace covers the drain, every queue has
 * its autoscaled workers, and the pods meet the "restricted" Pod Security Standard.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IContainer, IProbe } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../shared/config.js';
import { QUEUE_NAMES } from '../../shared/jobs/contracts.js';
import { ROOT } from './catalogue.js';
import { schemaErrors, unknownFieldErrors } from './k8s-schema.js';
import {
  containerEnv,
  containerPort,
  loadKustomization,
  loadManifestFile,
  selects,
  workloads,
  yamlFilesInK8sDir,
  type Manifest,
  type Workload,
} from './manifests.js';

/** shared/shutdown.ts exits on its own at SHUTDOWN_GRACE_MS + 5 s. */
const PROCESS_HARD_STOP_MARGIN_MS = 5_000;
/** Time for the endpoints controller and the proxies to stop routing to a deleted pod. */
const ENDPOINT_DRAIN_SECONDS = 5;
/** Keys the service reads that loadConfig does not: the metrics listener's (docs/operating.md) and the AWS SDK's. */
const KEYS_READ_ELSEWHERE = new Set(['METRICS_HOST', 'METRICS_PORT', 'METRICS_TOKEN', 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED']);

const SECRET_TEMPLATE = 'secret.example.yaml';
const kustomization = loadKustomization();
const applied = kustomization.resources.flatMap(loadManifestFile);
const secretTemplate = loadManifestFile(SECRET_TEMPLATE);
const all = [...applied, ...secretTemplate];
const byKind = (kind: string): Manifest[] => applied.filter((m) => m.kind === kind);
const pods = workloads(applied);
const namespace = byKind('Namespace')[0]!.metadata.name;

const envSources = new Map<string, Record<string, string>>([
  ...byKind('ConfigMap').map((m) => [m.metadata.name, m.data ?? {}] as const),
  ...secretTemplate.map((m) => [m.metadata.name, m.stringData ?? {}] as const),
]);

const queueOf = (w: Workload): string | undefined => w.podLabels['sha224d/queue'];
const apiPods = pods.filter((w) => w.podLabels['app.kubernetes.io/component'] === 'api');
const workerPods = pods.filter((w) => w.podLabels['app.kubernetes.io/component'] === 'worker');
const containersOf = (w: Workload): IContainer[] => w.pod.containers;
const name = (w: Workload): string => w.deployment.metadata.name;
const trafficServices = byKind('Service').filter((s) => s.spec?.clusterIP !== 'None');

function preStopSleepSeconds(c: IContainer): number {
  const command = c.lifecycle?.preStop?.exec?.command ?? [];
  return command[0] === 'sleep' ? Number(command[1]) : 0;
}

describe('deploy/k8s: files and schemas', () => {
  it('the kustomization lists every manifest file except the Secret template, which it must never apply', () => {
    const files = yamlFilesInK8sDir().filter((f) => f !== 'kustomization.yaml' && !f.endsWith('.example.yaml'));
    expect([...kustomization.resources].sort()).toEqual(files);
    expect(kustomization.resources).not.toContain(SECRET_TEMPLATE);
  });

  it('has the objects an operator needs', () => {
    const count = (kind: string): number => byKind(kind).length;
    expect(count('Namespace')).toBe(1);
    expect(count('ConfigMap')).toBe(1);
    expect(count('Deployment')).toBe(1 + QUEUE_NAMES.length);
    expect(count('HorizontalPodAutoscaler')).toBe(1);
    expect(count('ScaledObject')).toBe(QUEUE_NAMES.length);
    expect(count('PodDisruptionBudget')).toBe(1 + QUEUE_NAMES.length);
    expect(secretTemplate.map((m) => m.kind)).toEqual(['Secret']);
  });

  it('validates every object against its Kubernetes or KEDA schema', () => {
    expect(schemaErrors(all)).toEqual([]);
  });

  it('uses no field the schemas do not define', () => {
    expect(unknownFieldErrors(all)).toEqual([]);
  });

  it('the schema checks catch a wrong type, a missing field and a misspelt one', () => {
    const deployment = structuredClone(pods[0]!.deployment);
    const spec = deployment.spec as { replicas?: unknown; template: { spec: { containers: Array<Record<string, unknown>> } } };
    spec.replicas = 'two';
    const scaledObject = structuredClone(byKind('ScaledObject')[0]!);
    delete scaledObject.spec!.scaleTargetRef;
    expect(schemaErrors([deployment, scaledObject])).toEqual([
      `${deployment.file}: Deployment ${deployment.metadata.name}: data/spec/replicas must be integer`,
      `${scaledObject.file}: ScaledObject ${scaledObject.metadata.name}: data/spec must have required property scaleTargetRef`,
    ]);
    delete spec.replicas;
    spec.template.spec.containers[0]!.readinesProbe = { httpGet: { path: '/readyz', port: 8080 } };
    expect(schemaErrors([deployment])).toEqual([]);
    expect(unknownFieldErrors([deployment]).join('\n')).toMatch(/'"readinesProbe"' does not exist in type 'IContainer'/);
  });

  it('kubectl kustomize builds exactly these objects', (ctx) => {
    const built = spawnSync('kubectl', ['kustomize', path.join(ROOT, 'deploy', 'k8s')], { encoding: 'utf8', timeout: 30_000 });
    if (built.error) ctx.skip('kubectl is not installed: the kustomization is still checked file by file above');
    expect(built.stderr).toBe('');
    const objects = parseAllDocuments(built.stdout).map((d) => d.toJS() as Manifest);
    expect(objects.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual(applied.map((m) => `${m.kind}/${m.metadata.name}`).sort());
  });
});

describe('deploy/k8s: cross-references', () => {
  it('puts every namespaced object in the namespace, each name once per kind', () => {
    for (const m of applied.filter((m) => m.kind !== 'Namespace'))
      expect(m.metadata.namespace, `${m.kind} ${m.metadata.name}`).toBe(namespace);
    const keys = all.map((m) => `${m.kind}/${m.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every ConfigMap and Secret a pod reads exists, with every key it names', () => {
    for (const w of pods) {
      for (const c of containersOf(w)) {
        const refs = [
          ...(c.envFrom ?? []).map((f) => ({ source: f.configMapRef?.name ?? f.secretRef?.name, key: undefined })),
          ...(c.env ?? []).map((e) => ({
            source: e.valueFrom?.configMapKeyRef?.name ?? e.valueFrom?.secretKeyRef?.name,
            key: e.valueFrom?.configMapKeyRef?.key ?? e.valueFrom?.secretKeyRef?.key,
          })),
        ].filter((r) => r.source !== undefined || r.key !== undefined);
        expect(refs.length, name(w)).toBeGreaterThan(0);
        for (const { source, key } of refs) {
          expect(envSources.has(source!), `${name(w)} reads ${source}`).toBe(true);
          if (key) expect(envSources.get(source!), `${name(w)} reads ${source}.${key}`).toHaveProperty(key);
        }
      }
    }
  });

  it('the configuration every pod starts with is valid for the service and names only keys it reads', () => {
    for (const w of pods) {
      for (const c of containersOf(w)) {
        const env = containerEnv(c, envSources);
        const config = loadConfig(env);
        expect(config.mode, name(w)).toBe('distributed');
        expect(config.s3, `${name(w)}: blobs must be shared through S3`).toBeDefined();
        const unread = Object.keys(env).filter((k) => !(k in config) && !KEYS_READ_ELSEWHERE.has(k));
        expect(unread, name(w)).toEqual([]);
      }
    }
  });

  it('the Secret template holds placeholders only', () => {
    for (const [key, value] of Object.entries(secretTemplate[0]!.stringData ?? {})) expect(value, key).toContain('CHANGE_ME');
    expect(secretTemplate[0]!.data).toBeUndefined();
  });

  it('every HPA and ScaledObject scales an existing Deployment, which leaves the replica count to it', () => {
    const targets = [...byKind('HorizontalPodAutoscaler'), ...byKind('ScaledObject')].map((m) => {
      const ref = m.spec!.scaleTargetRef as { apiVersion?: string; kind?: string; name: string };
      expect([ref.apiVersion ?? 'apps/v1', ref.kind ?? 'Deployment'], m.metadata.name).toEqual(['apps/v1', 'Deployment']);
      return ref.name;
    });
    expect([...targets].sort()).toEqual(pods.map(name).sort());
    for (const w of pods) expect(w.deployment.spec!.replicas, name(w)).toBeUndefined();
  });

  it('every Deployment selects its own pods and has one PodDisruptionBudget', () => {
    for (const w of pods) {
      const selector = (w.deployment.spec!.selector as { matchLabels: Record<string, string> }).matchLabels;
      expect(selects(selector, w.podLabels), name(w)).toBe(true);
      const others = pods.filter((o) => o !== w && selects(selector, o.podLabels));
      expect(others.map(name), `${name(w)}'s selector also selects`).toEqual([]);
      const budgets = byKind('PodDisruptionBudget').filter((p) =>
        selects((p.spec!.selector as { matchLabels: Record<string, string> }).matchLabels, w.podLabels),
      );
      expect(
        budgets.map((b) => b.metadata.name),
        name(w),
      ).toEqual([name(w)]);
    }
  });

  it("every Service selects pods whose containers have the Service's target ports", () => {
    for (const s of byKind('Service')) {
      const selected = pods.filter((w) => selects(s.spec!.selector as Record<string, string>, w.podLabels));
      expect(selected.length, s.metadata.name).toBeGreaterThan(0);
      for (const port of s.spec!.ports as Array<{ targetPort: string | number }>)
        for (const w of selected)
          expect(containerPort(containersOf(w)[0]!, port.targetPort), `${s.metadata.name} → ${name(w)}`).toBeDefined();
    }
  });

  it('one image for every container, the one the kustomization renames', () => {
    const images = new Set(pods.flatMap((w) => containersOf(w).map((c) => c.image)));
    expect(images.size).toBe(1);
    const [image] = images;
    expect(kustomization.images?.map((i) => i.name)).toEqual([image!.split(':')[0]]);
  });
});

describe('deploy/k8s: probes, ports and draining', () => {
  const probes = (c: IContainer): Array<[string, IProbe | undefined]> => [
    ['startup', c.startupProbe],
    ['liveness', c.livenessProbe],
    ['readiness', c.readinessProbe],
  ];

  it('liveness on /healthz and readiness on /readyz, on a port the container exposes', () => {
    for (const w of pods) {
      for (const c of containersOf(w)) {
        expect(c.livenessProbe?.httpGet?.path, name(w)).toBe('/healthz');
        expect(c.readinessProbe?.httpGet?.path, name(w)).toBe('/readyz');
        for (const [kind, probe] of probes(c)) {
          if (!probe) continue;
          expect(containerPort(c, probe.httpGet!.port), `${name(w)} ${kind} probe port`).toBeDefined();
          // /readyz pings every dependency within 2 s (api/app.ts): the probe must wait longer.
          if (kind === 'readiness') expect(probe.timeoutSeconds ?? 1, name(w)).toBeGreaterThan(2);
        }
      }
    }
  });

  it('the API listens where its probes and Service look, and its probes are not redirected to HTTPS', () => {
    for (const w of apiPods) {
      const c = containersOf(w)[0]!;
      const config = loadConfig(containerEnv(c, envSources));
      expect(containerPort(c, 'http')).toBe(config.PORT);
      expect(config.HOST).toBe('0.0.0.0');
      // TRUST_PROXY turns the HTTPS redirect on (api/middleware/https-only.ts): a probe without
      // X-Forwarded-Proto: https would get a 308 to a TLS port that does not exist.
      expect(config.TRUST_PROXY).not.toBe('false');
      for (const [kind, probe] of probes(c))
        if (probe) expect(probe.httpGet?.httpHeaders, `${kind} probe`).toContainEqual({ name: 'X-Forwarded-Proto', value: 'https' });
    }
  });

  it('workers serve their probes and metrics on METRICS_PORT, on every address, with a token', () => {
    for (const w of workerPods) {
      const c = containersOf(w)[0]!;
      const env = containerEnv(c, envSources);
      expect(containerPort(c, 'metrics'), name(w)).toBe(Number(env.METRICS_PORT));
      // The kubelet and Prometheus reach the pod from outside it, and a worker bound to a
      // non-loopback address refuses to start without METRICS_TOKEN (docs/operating.md).
      expect(env.METRICS_HOST, name(w)).toBe('0.0.0.0');
      expect(env.METRICS_TOKEN, name(w)).toBeTruthy();
    }
  });

  it('pods behind a Service sleep in preStop while the endpoints drop them', () => {
    const served = pods.filter((w) => trafficServices.some((s) => selects(s.spec!.selector as Record<string, string>, w.podLabels)));
    expect(served.map(name)).toEqual(apiPods.map(name));
    for (const w of served)
      for (const c of containersOf(w)) expect(preStopSleepSeconds(c), name(w)).toBeGreaterThanOrEqual(ENDPOINT_DRAIN_SECONDS);
  });

  it('terminationGracePeriodSeconds is above preStop + SHUTDOWN_GRACE_MS + the process hard-stop margin', () => {
    for (const w of pods) {
      for (const c of containersOf(w)) {
        const { SHUTDOWN_GRACE_MS } = loadConfig(containerEnv(c, envSources));
        const needed = preStopSleepSeconds(c) * 1000 + SHUTDOWN_GRACE_MS + PROCESS_HARD_STOP_MARGIN_MS;
        expect(w.pod.terminationGracePeriodSeconds! * 1000, name(w)).toBeGreaterThan(needed);
        expect(SHUTDOWN_GRACE_MS, name(w)).toBeGreaterThan(0);
      }
    }
  });

  it('the containers run the entry points deploy/build.mjs bundles and the Dockerfile ships', () => {
    const build = readFileSync(path.join(ROOT, 'deploy', 'build.mjs'), 'utf8');
    const entries = Object.fromEntries([...build.matchAll(/^\s+(\w+): '([\w/.-]+\.ts)',$/gm)].map((m) => [`dist/${m[1]}.js`, m[2]]));
    const dockerfile = readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(dockerfile).toMatch(/^WORKDIR \/app$/m);
    for (const w of pods) {
      // No --enable-source-maps: an operator who debugs sets NODE_OPTIONS (docs/decisions.md "Speed").
      const [node, script] = containersOf(w)[0]!.command ?? [];
      expect(node, name(w)).toBe('node');
      expect(entries[script!], `${name(w)} runs ${script}`).toBe(apiPods.includes(w) ? 'api/main.ts' : 'workers/main.ts');
    }
  });
});

describe('deploy/k8s: workers per queue, scaled by KEDA', () => {
  it('one worker Deployment per queue, consuming exactly that queue', () => {
    expect(workerPods.map(queueOf).sort()).toEqual([...QUEUE_NAMES].sort());
    for (const w of workerPods) {
      const args = containersOf(w)[0]!.command!.slice(2);
      expect(args.length, name(w)).toBe(4);
      expect([args[0], args[1], args[2]], name(w)).toEqual(['--queues', queueOf(w), '--concurrency']);
      const concurrency = Number(args[3]);
      // workers/main.ts accepts 1..256.
      expect(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 256, name(w)).toBe(true);
      expect(name(w)).toBe(`sha224d-worker-${queueOf(w)}`);
    }
  });

  it("each ScaledObject scales its queue's workers on that queue's age and depth", () => {
    const servers = new Set<string>();
    for (const so of byKind('ScaledObject')) {
      const target = pods.find((w) => name(w) === (so.spec!.scaleTargetRef as { name: string }).name)!;
      const queue = queueOf(target)!;
      const spec = so.spec as {
        minReplicaCount: number;
        maxReplicaCount: number;
        fallback?: { replicas: number; failureThreshold: number };
        triggers: Array<{ type: string; metricType?: string; metadata: Record<string, string> }>;
      };
      // A synchronous job cannot wait for a worker to start from zero.
      expect(spec.minReplicaCount, so.metadata.name).toBeGreaterThanOrEqual(1);
      expect(spec.maxReplicaCount).toBeGreaterThan(spec.minReplicaCount);
      expect(spec.fallback!.replicas).toBeGreaterThanOrEqual(spec.minReplicaCount);
      expect(spec.fallback!.replicas).toBeLessThanOrEqual(spec.maxReplicaCount);
      const queries = spec.triggers.map((t) => {
        expect(t.type).toBe('prometheus');
        // KEDA's fallback applies to AverageValue triggers in every 2.x release.
        expect(t.metricType).toBe('AverageValue');
        expect(Number(t.metadata.threshold)).toBeGreaterThan(0);
        // Missing series must count as a failure (→ fallback), not as an empty queue.
        expect(t.metadata.ignoreNullValues).toBe('false');
        servers.add(t.metadata.serverAddress!);
        return t.metadata.query!;
      });
      expect(
        queries.some((q) => q.includes('sha224d_queue_oldest_waiting_age_seconds')),
        so.metadata.name,
      ).toBe(true);
      expect(
        queries.some((q) => q.includes('sha224d_queue_jobs')),
        so.metadata.name,
      ).toBe(true);
      for (const q of queries) {
        expect(q, so.metadata.name).toContain(`queue="${queue}"`);
        expect(q, so.metadata.name).toContain(`namespace="${namespace}"`);
      }
    }
    expect(servers.size).toBe(1);
  });

  it('the API scales on CPU and keeps two pods through a node drain', () => {
    const [hpa] = byKind('HorizontalPodAutoscaler');
    const spec = hpa!.spec as { minReplicas: number; maxReplicas: number; metrics: Array<{ type: string; resource?: { name: string } }> };
    expect(spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(spec.maxReplicas).toBeGreaterThan(spec.minReplicas);
    expect(spec.metrics.map((m) => `${m.type}/${m.resource?.name}`)).toEqual(['Resource/cpu']);
  });

  it('every PodDisruptionBudget lets one pod go at a time, and never holds a node drain for a pod that is not ready', () => {
    for (const pdb of byKind('PodDisruptionBudget')) {
      expect(pdb.spec!.maxUnavailable, pdb.metadata.name).toBe(1);
      expect(pdb.spec!.unhealthyPodEvictionPolicy, pdb.metadata.name).toBe('AlwaysAllow');
    }
  });
});

describe('deploy/k8s: the restricted Pod Security Standard', () => {
  it('the namespace enforces it', () => {
    expect(byKind('Namespace')[0]!.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('every pod runs non-root, read-only, with no capability, under the runtime seccomp profile, with resources', () => {
    for (const w of pods) {
      const pod = w.pod;
      expect(pod.securityContext?.runAsNonRoot, name(w)).toBe(true);
      // uid 1000 is the node image's "node" user, the Dockerfile's USER.
      expect(pod.securityContext?.runAsUser, name(w)).toBe(1000);
      expect(pod.securityContext?.seccompProfile?.type, name(w)).toBe('RuntimeDefault');
      expect(pod.automountServiceAccountToken, name(w)).toBe(false);
      for (const c of containersOf(w)) {
        expect(c.securityContext?.allowPrivilegeEscalation, name(w)).toBe(false);
        expect(c.securityContext?.readOnlyRootFilesystem, name(w)).toBe(true);
        expect(c.securityContext?.capabilities?.drop, name(w)).toEqual(['ALL']);
        expect(
          c.volumeMounts?.map((v) => v.mountPath),
          `${name(w)}: a writable /tmp`,
        ).toContain('/tmp');
        expect(Object.keys(c.resources?.requests ?? {}).sort(), name(w)).toEqual(['cpu', 'memory']);
        expect(c.resources?.limits?.memory, name(w)).toBeDefined();
      }
    }
    expect(readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8')).toMatch(/^USER node$/m);
  });
});
