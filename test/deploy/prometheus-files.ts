/**
 * The Prometheus files of deploy/prometheus as objects, and the options the catalogue check needs
 * from them: which labels every series carries from its target.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT, defaultMetricNames } from './catalogue.js';
import type { CheckOptions } from './promql.js';

export const ALERTS_FILE = path.join(ROOT, 'deploy', 'prometheus', 'alerts.yml');
export const SCRAPE_FILE = path.join(ROOT, 'deploy', 'prometheus', 'prometheus.yml');
export const ALERT_TESTS_FILE = path.join(ROOT, 'test', 'deploy', 'alerts.promtool.yml');

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface ScrapeJob {
  job_name: string;
  metrics_path?: string;
  authorization?: { type?: string; credentials_file?: string };
  dns_sd_configs?: Array<{ names: string[]; type?: string; port?: number }>;
  relabel_configs?: Array<{ source_labels?: string[]; target_label?: string; replacement?: string; action?: string }>;
}

export interface ScrapeConfig {
  rule_files?: string[];
  scrape_configs: ScrapeJob[];
}

export function loadAlertRules(): AlertRule[] {
  const doc = parse(readFileSync(ALERTS_FILE, 'utf8')) as { groups: Array<{ name: string; rules: AlertRule[] }> };
  return doc.groups.flatMap((g) => g.rules);
}

export function loadScrapeConfig(): ScrapeConfig {
  return parse(readFileSync(SCRAPE_FILE, 'utf8')) as ScrapeConfig;
}

/** job and instance, plus every label the example scrape config's relabelling adds. */
export function targetLabels(config: ScrapeConfig = loadScrapeConfig()): Set<string> {
  const added = config.scrape_configs.flatMap((j) => (j.relabel_configs ?? []).map((r) => r.target_label ?? ''));
  return new Set(['job', 'instance', ...added.filter((l) => l !== '' && !l.startsWith('__'))]);
}

/** What an expression may select besides the catalogue: prom-client's defaults and Prometheus's `up`. */
export async function checkOptions(): Promise<CheckOptions> {
  const otherNames = await defaultMetricNames();
  otherNames.add('up');
  return { otherNames, targetLabels: targetLabels() };
}
