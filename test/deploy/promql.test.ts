/**
 * The catalogue check that the alert, dashboard and autoscaler tests rely on: it reads the
 * catalogue of docs/operating.md as the service's code names things, and it refuses what does
 * not exist (a check that cannot fail would prove nothing).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES, QUEUE_OF_KIND } from '../../shared/jobs/contracts.js';
import { readCatalogue } from './catalogue.js';
import { catalogueProblems, metricsOf, parseExpr, type CheckOptions } from './promql.js';
import { checkOptions } from './prometheus-files.js';

const catalogue = readCatalogue();
let options: CheckOptions;
beforeAll(async () => {
  options = await checkOptions();
});

describe('the metric catalogue of docs/operating.md', () => {
  it('lists every metric once with a type and its labels', () => {
    expect(catalogue.metrics.size).toBe(20);
    expect(catalogue.metrics.get('sha224d_http_requests_total')).toEqual({
      name: 'sha224d_http_requests_total',
      type: 'counter',
      labels: ['route', 'generation', 'method', 'status'],
    });
    expect(catalogue.metrics.get('sha224d_job_wait_seconds')).toMatchObject({ type: 'histogram', labels: ['kind'] });
    expect(catalogue.metrics.get('sha224d_usage_flush_lag_seconds')).toMatchObject({ type: 'gauge', labels: [] });
    for (const m of catalogue.metrics.values()) {
      expect(m.name).toMatch(/^sha224d_/);
      if (m.type === 'counter') expect(m.name).toMatch(/_total$/);
      else expect(m.name).not.toMatch(/_total$/);
    }
  });

  it('names the job kinds and queues the code has', () => {
    expect([...catalogue.enumerated.get('kind')!].sort()).toEqual(Object.keys(QUEUE_OF_KIND).sort());
    expect([...catalogue.enumerated.get('queue')!].sort()).toEqual([...QUEUE_NAMES].sort());
  });

  it('enumerates the closed label sets and leaves the open ones open', () => {
    expect(catalogue.enumerated.get('state')).toEqual(['waiting', 'active', 'delayed', 'failed', 'paused']);
    expect(catalogue.enumerated.get('reason')).toEqual(['rate', 'quota', 'auth', 'ip', 'permission', 'origin']);
    expect(catalogue.enumerated.get('dependency')).toEqual(['redis', 'store', 'blobs']);
    expect(catalogue.enumerated.get('generation')).toEqual(['v1', 'v2', 'ws', 'socketio', 'other']);
    for (const open of ['route', 'status', 'method', 'code']) expect(catalogue.enumerated.has(open), open).toBe(false);
  });
});

describe('reading PromQL', () => {
  it('finds selectors, matchers, grouping labels and Grafana variables', () => {
    const parts = parseExpr(
      'histogram_quantile(0.99, sum by (route, le) (rate(sha224d_http_request_duration_seconds_bucket{job=~"$job", route!~".*/(file)"}[$__rate_interval]))) > 2.5 and on (route) up offset 5m',
    );
    expect(parts.selectors).toEqual([
      {
        metric: 'sha224d_http_request_duration_seconds_bucket',
        matchers: [
          { label: 'job', op: '=~', value: '$job' },
          { label: 'route', op: '!~', value: '.*/(file)' },
        ],
      },
      { metric: 'up', matchers: [] },
    ]);
    expect(parts.grouping).toEqual(['route', 'le', 'route']);
    expect(parts.variables).toEqual(['job', '__rate_interval']);
    expect(metricsOf('sum(rate(a_total[5m])) / sum without (x) (b)')).toEqual(['a_total', 'b']);
  });
});

describe('checking an expression against the catalogue', () => {
  const problems = (expr: string): string[] => catalogueProblems(expr, catalogue, options);

  it('accepts catalogue metrics, histogram series, default metrics, up and target labels', () => {
    expect(problems('sum by (queue, state) (sha224d_queue_jobs{namespace="sha224d", state=~"waiting|active"})')).toEqual([]);
    expect(problems('sum by (le) (rate(sha224d_job_run_seconds_bucket{kind="hash", le="+Inf"}[5m]))')).toEqual([]);
    expect(problems('rate(sha224d_job_run_seconds_count[5m]) + rate(sha224d_job_run_seconds_sum[5m])')).toEqual([]);
    expect(problems('rate(process_cpu_seconds_total{job="sha224d-api", instance="a"}[1m]) + nodejs_eventloop_lag_p99_seconds')).toEqual([]);
    expect(problems('up{job=~"sha224d-.*"} == 0')).toEqual([]);
  });

  it('refuses what the catalogue does not have', () => {
    expect(problems('rate(sha224d_http_request_total[5m])')).toEqual(['sha224d_http_request_total is not in the metric catalogue']);
    expect(problems('sha224d_queue_jobs_bucket')).toEqual(['sha224d_queue_jobs_bucket is not in the metric catalogue']);
    expect(problems('sha224d_queue_jobs{kind="hash"}')).toEqual(['sha224d_queue_jobs has no label kind']);
    expect(problems('sha224d_job_run_seconds_count{le="1"}')).toEqual(['sha224d_job_run_seconds_count has no label le']);
    expect(problems('sha224d_queue_jobs{state="wait"}')).toEqual([
      'sha224d_queue_jobs: state="wait" is not one of waiting, active, delayed, failed, paused',
    ]);
    expect(problems('sha224d_refusals_total{reason=~"rate|quotas"}')).toEqual([
      'sha224d_refusals_total: reason="quotas" is not one of rate, quota, auth, ip, permission, origin',
    ]);
    expect(problems('sum by (queues) (sha224d_queue_workers)')).toEqual(['grouping by queues, which none of the selected series has']);
    expect(problems('{__name__="sha224d_queue_jobs"}')).toEqual(['a selector without a metric name: {__name__}']);
  });

  it('does not judge matcher values that are Grafana variables or real regexes', () => {
    expect(problems('sha224d_queue_jobs{queue=~"$queue", state=~"wait.*"}')).toEqual([]);
  });
});
