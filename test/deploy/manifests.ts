/**
 * The Kubernetes manifests of deploy/k8s as plain objects, each with the file it came from, and
 * the few shapes the cross-reference checks read. Shapes are the Kubernetes API's own
 * (kubernetes-models' interfaces); the schema check in k8s-schema.ts is what proves them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { IContainer, IPodSpec } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './catalogue.js';

export const K8S_DIR = path.join(ROOT, 'deploy', 'k8s');

export interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  [field: string]: unknown;
}

export interface Workload {
  deployment: Manifest;
  podLabels: Record<string, string>;
  pod: IPodSpec;
}

export function parseYamlFile(file: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  return docs.map((doc, i) => {
    if (doc.errors.length > 0) throw new Error(`${file} document ${i}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS() as unknown;
  });
}

function asManifest(file: string, value: unknown): Manifest {
  const m = value as Partial<Manifest> | null;
  if (!m || typeof m.apiVersion !== 'string' || typeof m.kind !== 'string' || typeof m.metadata?.name !== 'string')
    throw new Error(`${file}: a document without apiVersion, kind and metadata.name`);
  return { ...(m as Manifest), file: path.basename(file) };
}

export function loadManifestFile(name: string): Manifest[] {
  const file = path.join(K8S_DIR, name);
  return parseYamlFile(file)
    .filter((doc) => doc !== null)
    .map((doc) => asManifest(file, doc));
}

export interface Kustomization {
  resources: string[];
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
}

export function loadKustomization(): Kustomization {
  const [doc] = parseYamlFile(path.join(K8S_DIR, 'kustomization.yaml'));
  return doc as Kustomization;
}

export function yamlFilesInK8sDir(): string[] {
  return readdirSync(K8S_DIR)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
}

export function workloads(manifests: readonly Manifest[]): Workload[] {
  return manifests
    .filter((m) => m.kind === 'Deployment')
    .map((deployment) => {
      const template = deployment.spec?.template as { metadata?: { labels?: Record<string, string> }; spec: IPodSpec };
      return { deployment, podLabels: template.metadata?.labels ?? {}, pod: template.spec };
    });
}

/** Does a label selector (matchLabels or a Service's selector) select these pod labels? */
export function selects(selector: Record<string, string> | undefined, podLabels: Record<string, string>): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => podLabels[k] === v);
}

/**
 * The environment a container starts with: envFrom sources in order, then env entries (which
 * win, as in Kubernetes). `sources` holds the ConfigMaps' data and the Secrets' stringData by name.
 */
export function containerEnv(container: IContainer, sources: ReadonlyMap<string, Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    const name = from.configMapRef?.name ?? from.secretRef?.name;
    if (name) Object.assign(env, sources.get(name));
  }
  for (const e of container.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
  return env;
}

/** The container port a probe's or Service's port refers to (by name or number). */
export function containerPort(container: IContainer, port: number | string): number | undefined {
  const found = (container.ports ?? []).find((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port));
  return found?.containerPort;
}
