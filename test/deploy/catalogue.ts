/**
 * The metric catalogue of docs/operating.md, read from its tables: the contract that the alert
 * rules, the dashboard and the autoscalers are checked against. Besides the catalogue, a node
 * exports prom-client's default metrics (their names are taken from prom-client itself) and
 * Prometheus adds `up` per target.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Registry, collectDefaultMetrics } from 'prom-client';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const OPERATING_MD = path.join(ROOT, 'docs', 'operating.md');

export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricSpec {
  name: string;
  type: MetricType;
  labels: readonly string[];
}

export interface Catalogue {
  metrics: ReadonlyMap<string, MetricSpec>;
  /** Labels whose values the catalogue enumerates (`state`: waiting, active, …); open ones are absent. */
  enumerated: ReadonlyMap<string, readonly string[]>;
}

/** The series name a histogram is exported under, per suffix (docs/operating.md, "Catalogue"). */
export const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'] as const;

const backticked = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function tableRows(markdown: string, firstHeader: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${firstHeader} |`));
  if (start < 0) throw new Error(`docs/operating.md has no table headed "${firstHeader}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
  }
  return rows;
}

export function parseCatalogue(markdown: string): Catalogue {
  const metrics = new Map<string, MetricSpec>();
  for (const [nameCell = '', type = '', labelsCell = ''] of tableRows(markdown, 'Metric')) {
    const [name] = backticked(nameCell);
    if (!name || !/^[a-z_:][a-z0-9_:]*$/.test(name)) throw new Error(`catalogue row without a metric name: ${nameCell}`);
    if (type !== 'counter' && type !== 'gauge' && type !== 'histogram') throw new Error(`${name}: unknown type "${type}"`);
    if (metrics.has(name)) throw new Error(`${name} is listed twice`);
    metrics.set(name, { name, type, labels: backticked(labelsCell) });
  }
  const enumerated = new Map<string, string[]>();
  for (const [labelCell = '', valuesCell = ''] of tableRows(markdown, 'Label')) {
    const [label] = backticked(labelCell);
    // A closed set is written as nothing but back-ticked values separated by commas.
    if (label && /^`[^`]+`(, `[^`]+`)*$/.test(valuesCell)) enumerated.set(label, backticked(valuesCell));
  }
  return { metrics, enumerated };
}

export function readCatalogue(): Catalogue {
  return parseCatalogue(readFileSync(OPERATING_MD, 'utf8'));
}

/** Series names of prom-client's default metrics (histograms with their suffixes). */
export async function defaultMetricNames(): Promise<Set<string>> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const names = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') for (const suffix of HISTOGRAM_SUFFIXES) names.add(metric.name + suffix);
  }
  registry.clear();
  return names;
}
