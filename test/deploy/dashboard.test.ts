/**
 * deploy/grafana/sha224d.json: a Grafana dashboard (schemaVersion 39) whose every query uses the
 * metric catalogue only, through the Prometheus data source variable, is valid PromQL (checked by
 * promtool, as are the KEDA triggers' queries), shows every metric of the catalogue, and lays its
 * panels out without overlap.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HISTOGRAM_SUFFIXES, ROOT, readCatalogue } from './catalogue.js';
import { loadKustomization, loadManifestFile } from './manifests.js';
import { catalogueProblems, metricsOf, parseExpr, type CheckOptions } from './promql.js';
import { checkOptions, loadAlertRules } from './prometheus-files.js';
import { PROMTOOL_MISSING, checkPromQlSyntax, promtool } from './promtool.js';

interface Target {
  refId: string;
  expr: string;
  datasource?: { type: string; uid: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: string; uid: string };
  targets?: Target[];
}
interface Variable {
  name: string;
  type: string;
  query: string | { query: string };
  datasource?: { type: string; uid: string };
}
interface Dashboard {
  schemaVersion: number;
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Variable[] };
}

const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'deploy', 'grafana', 'sha224d.json'), 'utf8')) as Dashboard;
const catalogue = readCatalogue();
const PROMETHEUS = { type: 'prometheus', uid: '${datasource}' };
/** Grafana's own variables, with a stand-in value for checking the syntax. */
const BUILTINS: Record<string, string> = { __rate_interval: '5m', __interval: '1m', __range: '1h' };

const graphs = dashboard.panels.filter((p) => p.type !== 'row');
const targets = graphs.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, ...t })));
const variables = dashboard.templating.list;
const queryVariables = variables.filter((v) => v.type === 'query');
const queryOf = (v: Variable): string => (typeof v.query === 'string' ? v.query : v.query.query);

/** The expression as Prometheus would get it: variables replaced by stand-ins. */
const substituted = (expr: string): string =>
  expr.replace(/\$(?:\{(\w+)\}|(\w+))/g, (_, a?: string, b?: string) => BUILTINS[(a ?? b)!] ?? '.*');

let options: CheckOptions;
beforeAll(async () => {
  options = await checkOptions();
});

describe('Grafana dashboard', () => {
  it('is a schemaVersion 39 dashboard with a stable uid', () => {
    expect(dashboard.schemaVersion).toBe(39);
    expect(dashboard.uid).toMatch(/^[a-z0-9-]{1,40}$/);
    expect(dashboard.title).toBe('sha224d');
  });

  it('queries Prometheus through a data source variable, in every panel, target and variable', () => {
    expect(variables[0]).toMatchObject({ name: 'datasource', type: 'datasource', query: 'prometheus' });
    expect(graphs.length).toBeGreaterThan(0);
    for (const p of graphs) {
      expect(p.datasource, p.title).toEqual(PROMETHEUS);
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      const refIds = p.targets!.map((t) => t.refId);
      expect(new Set(refIds).size, p.title).toBe(refIds.length);
      for (const t of p.targets!) expect(t.datasource, p.title).toEqual(PROMETHEUS);
    }
    for (const v of queryVariables) expect(v.datasource, v.name).toEqual(PROMETHEUS);
  });

  it('every query uses only metrics and labels of the catalogue', () => {
    for (const t of targets) expect(catalogueProblems(t.expr, catalogue, options), `${t.panel}: ${t.expr}`).toEqual([]);
  });

  it('every variable a query uses is defined', () => {
    const defined = new Set([...variables.map((v) => v.name), ...Object.keys(BUILTINS)]);
    for (const t of [...targets.map((t) => t.expr), ...queryVariables.map(queryOf)])
      for (const v of parseExpr(t).variables) expect(defined.has(v), `$${v} in ${t}`).toBe(true);
  });

  it('the variables list label values of catalogue series', () => {
    for (const v of queryVariables) {
      const m = /^label_values\((.+), (\w+)\)$/.exec(queryOf(v));
      expect(m, v.name).not.toBeNull();
      const [, selector, label] = m!;
      expect(catalogueProblems(`${selector!} and on (${label!}) ${selector!}`, catalogue, options), v.name).toEqual([]);
    }
  });

  it('shows every metric of the catalogue, and CPU, memory and event-loop lag', () => {
    const shown = new Set(
      targets
        .flatMap((t) => metricsOf(t.expr))
        .map((name) => HISTOGRAM_SUFFIXES.reduce((n, s) => (n.endsWith(s) ? n.slice(0, -s.length) : n), name)),
    );
    for (const name of catalogue.metrics.keys()) expect(shown.has(name), name).toBe(true);
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds'])
      expect(shown.has(name), name).toBe(true);
  });

  it('aggregates the cluster-wide queue gauges with max, never sum (docs/operating.md)', () => {
    const queueExprs = [...targets.map((t) => t.expr), ...loadAlertRules().map((r) => r.expr)].filter((e) => e.includes('sha224d_queue_'));
    expect(queueExprs.length).toBeGreaterThan(0);
    for (const e of queueExprs) {
      expect(e).not.toMatch(/\b(sum|avg|count)\b/);
      expect(e).toMatch(/\bmax\b/);
    }
  });

  it('has unique panel ids and lays panels out on the 24-column grid without overlap', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const boxes = dashboard.panels.map((p) => p.gridPos);
    for (const [i, a] of boxes.entries()) {
      expect(a.x >= 0 && a.w > 0 && a.x + a.w <= 24 && a.h > 0, dashboard.panels[i]!.title).toBe(true);
      for (const b of boxes.slice(i + 1)) {
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `${dashboard.panels[i]!.title} overlaps another panel`).toBe(false);
      }
    }
  });
});

describe.skipIf(!promtool)(`PromQL syntax, checked by promtool${promtool ? '' : ` (skipped: ${PROMTOOL_MISSING})`}`, () => {
  it('of every dashboard query and every KEDA trigger query', async () => {
    const expressions = new Map<string, string>();
    for (const t of targets) expressions.set(`dashboard "${t.panel}" ${t.refId}`, substituted(t.expr));
    const scaledObjects = loadKustomization()
      .resources.flatMap(loadManifestFile)
      .filter((m) => m.kind === 'ScaledObject');
    for (const so of scaledObjects) {
      const triggers = (so.spec as { triggers: Array<{ name: string; metadata: { query: string } }> }).triggers;
      for (const trigger of triggers) expressions.set(`${so.metadata.name} trigger ${trigger.name}`, trigger.metadata.query);
    }
    expect(expressions.size).toBe(targets.length + scaledObjects.length * 2);
    const { code, output } = await checkPromQlSyntax(expressions);
    expect(output).toContain(`SUCCESS: ${expressions.size} rules found`);
    expect(code).toBe(0);
  });

  it('and a broken query is refused, by name', async () => {
    const { code, output } = await checkPromQlSyntax(
      new Map([
        ['fine', 'sum(rate(sha224d_http_requests_total[5m]))'],
        ['broken panel', 'sum(rate(sha224d_http_requests_total[5m])'],
      ]),
    );
    expect(code).not.toBe(0);
    expect(output).toContain('broken panel');
  });
});
