/**
 * Just enough PromQL reading to check an expression against the metric catalogue: which series
 * it selects, with which label matchers, and which labels it groups by. Syntax is promtool's job
 * (test/deploy/promtool.ts); this finds names the syntax cannot know are wrong.
 */
import { HISTOGRAM_SUFFIXES, type Catalogue } from './catalogue.js';

export interface Matcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

export interface Selector {
  metric: string;
  matchers: Matcher[];
}

export interface ExprParts {
  selectors: Selector[];
  /** Labels named in by/without/on/ignoring/group_left/group_right lists. */
  grouping: string[];
  /** Grafana variables ($job, $__rate_interval). */
  variables: string[];
}

const GROUPING = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'atan2']);
const IDENT = /[A-Za-z_:][A-Za-z0-9_:]*/y;

export function parseExpr(expr: string): ExprParts {
  // Variables may stand anywhere, inside strings and ranges too: `{job=~"$job"}[$__rate_interval]`.
  const variables = [...expr.matchAll(/\$(?:\{(\w+)\}|(\w+))/g)].map((m) => m[1] ?? m[2]!);
  const parts: ExprParts = { selectors: [], grouping: [], variables };
  let i = 0;
  const skipSpace = (): void => {
    while (i < expr.length && /\s/.test(expr[i]!)) i++;
  };
  const readString = (): string => {
    const quote = expr[i]!;
    let out = '';
    for (i++; i < expr.length && expr[i] !== quote; i++) {
      if (expr[i] === '\\' && quote !== '`') i++;
      out += expr[i] ?? '';
    }
    if (i >= expr.length) throw new Error(`unterminated string in ${expr}`);
    i++;
    return out;
  };
  const readIdent = (): string => {
    IDENT.lastIndex = i;
    const m = IDENT.exec(expr);
    if (!m) throw new Error(`expected a name at ${i} in ${expr}`);
    i += m[0].length;
    return m[0];
  };
  const readMatchers = (): Matcher[] => {
    const matchers: Matcher[] = [];
    i++; // {
    for (;;) {
      skipSpace();
      if (expr[i] === '}') break;
      const label = readIdent();
      skipSpace();
      const op = /^(=~|!~|!=|=)/.exec(expr.slice(i))?.[0] as Matcher['op'] | undefined;
      if (!op) throw new Error(`expected a matcher operator after ${label} in ${expr}`);
      i += op.length;
      skipSpace();
      matchers.push({ label, op, value: readString() });
      skipSpace();
      if (expr[i] === ',') i++;
    }
    i++; // }
    return matchers;
  };

  while (i < expr.length) {
    const c = expr[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '"' || c === "'" || c === '`') readString();
    else if (/[0-9.]/.test(c)) while (i < expr.length && /[0-9A-Za-z.]/.test(expr[i]!)) i++;
    else if (c === '[') i = expr.indexOf(']', i) + 1 || expr.length;
    else if (c === '$') {
      i++;
      if (expr[i] === '{') i = expr.indexOf('}', i) + 1;
      else readIdent();
    } else if (c === '{') parts.selectors.push({ metric: '', matchers: readMatchers() });
    else if (/[A-Za-z_:]/.test(c)) {
      const name = readIdent();
      skipSpace();
      if (GROUPING.has(name) && expr[i] === '(') {
        const close = expr.indexOf(')', i);
        parts.grouping.push(
          ...expr
            .slice(i + 1, close)
            .split(',')
            .map((l) => l.trim())
            .filter(Boolean),
        );
        i = close + 1;
      } else if (expr[i] === '(' || /^(by|without)\s*\(/.test(expr.slice(i)) || KEYWORDS.has(name.toLowerCase()) || GROUPING.has(name)) {
        // a function, an aggregation (its grouping may come first: `sum by (x) (…)`), or a keyword
      } else parts.selectors.push({ metric: name, matchers: expr[i] === '{' ? readMatchers() : [] });
    } else i++;
  }
  return parts;
}

export interface CheckOptions {
  /** Series names that exist besides the catalogue (prom-client's defaults, `up`). */
  otherNames: ReadonlySet<string>;
  /** Labels every series carries from its target (job, instance, and the scrape config's own). */
  targetLabels: ReadonlySet<string>;
}

/** What an expression gets wrong against the catalogue; empty when it only uses what exists. */
export function catalogueProblems(expr: string, catalogue: Catalogue, options: CheckOptions): string[] {
  const problems: string[] = [];
  const { selectors, grouping } = parseExpr(expr);
  const known = new Set<string>(options.targetLabels);
  for (const { metric, matchers } of selectors) {
    if (metric === '') {
      problems.push(`a selector without a metric name: {${matchers.map((m) => m.label).join(', ')}}`);
      continue;
    }
    const suffix = HISTOGRAM_SUFFIXES.find((s) => metric.endsWith(s));
    const base = suffix ? metric.slice(0, -suffix.length) : metric;
    const spec =
      catalogue.metrics.get(metric) ?? (catalogue.metrics.get(base)?.type === 'histogram' ? catalogue.metrics.get(base) : undefined);
    if (!spec && !options.otherNames.has(metric)) {
      problems.push(`${metric} is not in the metric catalogue`);
      continue;
    }
    const labels = new Set([...options.targetLabels, ...(spec?.labels ?? []), ...(spec && suffix === '_bucket' ? ['le'] : [])]);
    labels.forEach((l) => known.add(l));
    for (const m of matchers) {
      if (!labels.has(m.label)) {
        problems.push(`${metric} has no label ${m.label}`);
        continue;
      }
      const values = catalogue.enumerated.get(m.label);
      if (!values || m.value.includes('$')) continue;
      // Exact values, or a regex that is a plain alternation of values, must name real values.
      const literals =
        m.op === '=' || m.op === '!=' ? [m.value] : /^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$/.test(m.value) ? m.value.split('|') : [];
      for (const v of literals) if (!values.includes(v)) problems.push(`${metric}: ${m.label}="${v}" is not one of ${values.join(', ')}`);
    }
  }
  for (const label of grouping) if (!known.has(label)) problems.push(`grouping by ${label}, which none of the selected series has`);
  return problems;
}

/** Every metric name an expression selects. */
export function metricsOf(expr: string): string[] {
  return parseExpr(expr).selectors.map((s) => s.metric);
}
