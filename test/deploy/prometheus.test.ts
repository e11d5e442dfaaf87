/**
 * deploy/prometheus: the alert rules pass `promtool check rules` and their unit tests
 * (`promtool test rules`, which fire every alert on synthetic series and keep healthy ones
 * silent); every rule is complete and only uses the metric catalogue; the example scrape config
 * passes `promtool check config` and finds exactly the pods of deploy/k8s.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OPERATING_MD, readCatalogue } from './catalogue.js';
import { containerPort, loadKustomization, loadManifestFile, selects, workloads } from './manifests.js';
import { catalogueProblems, type CheckOptions } from './promql.js';
import { ALERTS_FILE, ALERT_TESTS_FILE, SCRAPE_FILE, checkOptions, loadAlertRules, loadScrapeConfig } from './prometheus-files.js';
import { PROMTOOL_MISSING, promtool, runPromtool } from './promtool.js';

const rules = loadAlertRules();
const scrape = loadScrapeConfig();
const catalogue = readCatalogue();
const manifests = loadKustomization().resources.flatMap(loadManifestFile);
const namespace = manifests.find((m) => m.kind === 'Namespace')!.metadata.name;
let options: CheckOptions;
beforeAll(async () => {
  options = await checkOptions();
});

if (!promtool) console.warn(`test/deploy/prometheus.test.ts: ${PROMTOOL_MISSING}; the promtool checks are skipped`);

describe.skipIf(!promtool)(`promtool${promtool ? '' : ` (skipped: ${PROMTOOL_MISSING})`}`, () => {
  it('check rules accepts deploy/prometheus/alerts.yml', async () => {
    const { code, output } = await runPromtool(['check', 'rules', ALERTS_FILE]);
    expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(code).toBe(0);
  });

  it('check rules refuses a rule file with a broken expression (the check can fail)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sha224d-rules-'));
    try {
      const file = path.join(dir, 'broken.yml');
      writeFileSync(file, readFileSync(ALERTS_FILE, 'utf8').replace('> 0.05', '> > 0.05'));
      const { code, output } = await runPromtool(['check', 'rules', file]);
      expect(code).not.toBe(0);
      expect(output).toMatch(/Sha224dHighErrorRate|parse error/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the unit tests of every alert pass: each fires on its fault and stays silent on healthy series', async () => {
    const { code, output } = await runPromtool(['test', 'rules', ALERT_TESTS_FILE]);
    expect(output).toContain('SUCCESS');
    expect(code).toBe(0);
  });

  describe('check config', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'sha224d-prometheus-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('accepts the example scrape config (syntax)', async () => {
      const { code, output } = await runPromtool(['check', 'config', '--syntax-only', SCRAPE_FILE]);
      expect(output).toContain('SUCCESS');
      expect(code).toBe(0);
    });

    it('accepts it in full, with its rule file and a token file where the pod mounts one', async () => {
      // credentials_file must exist for the full check: point it at a temporary token.
      const token = path.join(dir, 'METRICS_TOKEN');
      writeFileSync(token, 'test-token\n');
      const config = readFileSync(SCRAPE_FILE, 'utf8').replaceAll(scrape.scrape_configs[0]!.authorization!.credentials_file!, token);
      writeFileSync(path.join(dir, 'prometheus.yml'), config);
      copyFileSync(ALERTS_FILE, path.join(dir, 'alerts.yml'));
      const { code, output } = await runPromtool(['check', 'config', path.join(dir, 'prometheus.yml')]);
      expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
      expect(code).toBe(0);
    });
  });
});

describe('alert rules', () => {
  it('every rule has a for: duration, a severity and a summary and description', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      expect(rule.alert, rule.expr).toMatch(/^Sha224d[A-Z]\w+$/);
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(Object.keys(rule.annotations ?? {}).sort(), rule.alert).toEqual(['description', 'summary']);
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  it('covers what operators asked to be told about', () => {
    const exprs = rules.map((r) => r.expr).join('\n');
    for (const needed of [
      'sha224d_http_requests_total{status=~"5.."}',
      'sha224d_http_request_duration_seconds_bucket',
      'sha224d_queue_oldest_waiting_age_seconds',
      'sha224d_queue_jobs{state="waiting"}',
      'sha224d_queue_workers',
      'sha224d_dependency_up',
      'sha224d_usage_flush_failures_total',
      'sha224d_usage_flush_lag_seconds',
      'up{job=~"sha224d-api|sha224d-worker"}',
    ])
      expect(exprs).toContain(needed);
  });

  it('only uses metrics and labels of the catalogue', () => {
    for (const rule of rules) expect(catalogueProblems(rule.expr, catalogue, options), rule.alert).toEqual([]);
  });

  it('the promtool unit tests make every alert fire and check every alert silent', () => {
    const doc = parse(readFileSync(ALERT_TESTS_FILE, 'utf8')) as {
      tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
    };
    const cases = doc.tests.flatMap((t) => t.alert_rule_test ?? []);
    const names = rules.map((r) => r.alert).sort();
    expect([...new Set(cases.filter((c) => c.exp_alerts.length > 0).map((c) => c.alertname))].sort()).toEqual(names);
    expect([...new Set(cases.filter((c) => c.exp_alerts.length === 0).map((c) => c.alertname))].sort()).toEqual(names);
  });

  it('docs/operating.md lists every alert with its severity', () => {
    const documented = [...readFileSync(OPERATING_MD, 'utf8').matchAll(/^\| `(Sha224d\w+)` \| (\w+) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(documented.sort()).toEqual(rules.map((r) => `${r.alert} ${r.labels?.severity}`).sort());
  });
});

describe('example scrape config', () => {
  const jobs = new Map(scrape.scrape_configs.map((j) => [j.job_name, j]));
  const pods = workloads(manifests);

  it('scrapes the jobs the rules and the dashboard name, with the bearer token, and loads the rules', () => {
    expect([...jobs.keys()].sort()).toEqual(['sha224d-api', 'sha224d-worker']);
    for (const job of jobs.values()) {
      expect(job.metrics_path).toBe('/metrics');
      expect(job.authorization?.type).toBe('Bearer');
      expect(job.authorization?.credentials_file).toMatch(/^\//);
    }
    expect(scrape.rule_files).toEqual([path.basename(ALERTS_FILE)]);
  });

  it.each([
    ['sha224d-api', 'api'],
    ['sha224d-worker', 'worker'],
  ])('%s discovers every %s pod, ready or not, on its metrics port', (jobName, component) => {
    const job = jobs.get(jobName)!;
    const [sd] = job.dns_sd_configs!;
    expect(sd!.names).toHaveLength(1);
    const [service, ns, ...rest] = sd!.names[0]!.split('.');
    expect([ns, rest.join('.')]).toEqual([namespace, 'svc.cluster.local']);
    const svc = manifests.find((m) => m.kind === 'Service' && m.metadata.name === service)!;
    expect(svc, service).toBeDefined();
    // Headless: one A record per pod; not-ready pods too, so a node that lost a dependency still reports it.
    expect(svc.spec!.clusterIP).toBe('None');
    expect(svc.spec!.publishNotReadyAddresses).toBe(true);
    const selected = pods.filter((w) => selects(svc.spec!.selector as Record<string, string>, w.podLabels));
    const expected = pods.filter((w) => w.podLabels['app.kubernetes.io/component'] === component);
    expect(selected.map((w) => w.deployment.metadata.name).sort()).toEqual(expected.map((w) => w.deployment.metadata.name).sort());
    for (const w of selected) {
      const port = containerPort(w.pod.containers[0]!, sd!.port!);
      expect(port, w.deployment.metadata.name).toBe(sd!.port);
    }
    expect(job.relabel_configs).toContainEqual({ target_label: 'namespace', replacement: namespace });
  });
});
