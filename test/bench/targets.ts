/**
 * The figures `npm run bench` is held to (README "Performance"), each printed with its target and
 * whether this run met it. Ratios are taken against the references measured in the same run.
 */
import type { ScenarioResult } from './report.js';

const EMBEDDED = 'sha224d embedded';
const INLINE = 'sha224d distributed, inline (+Redis)';
const DISTRIBUTED = 'sha224d distributed API node (+Redis)';
const EXPRESS = 'bare Express 5';
const MiB = 1024 * 1024;

interface Target {
  figure: string;
  value: string;
  target: string;
  met: boolean;
}

type Scenarios = Record<string, ScenarioResult>;

function check(figure: string, value: number | null | undefined, limit: number, show: (n: number) => string, target: string): Target[] {
  if (value === null || value === undefined || !Number.isFinite(value)) return [];
  return [{ figure, value: show(value), target, met: value <= limit }];
}

const times = (n: number): string => `${n.toFixed(2)}×`;
const ms = (n: number): string => `${n.toFixed(0)} ms`;
const mib = (bytes: number): string => `${(bytes / MiB).toFixed(0)} MiB`;
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

function hashTargets(scenarios: Scenarios): Target[] {
  const hash = scenarios.hash?.subjects;
  if (!hash) return [];
  const express = hash[EXPRESS]?.median.allocatedBytesPerOp;
  return [EMBEDDED, INLINE].flatMap((name) => {
    const s = hash[name];
    if (!s) return [];
    const label = name === EMBEDDED ? 'embedded' : 'distributed inline';
    return [
      ...check(`/v2/hash CPU per request × bare Express 5, ${label}`, s.vs[EXPRESS]?.cpu, 0.999, times, '< 1× (cheaper per CPU-second)'),
      ...check(`/v2/hash p99 at 64 connections, ${label}`, s.median.p99Ms, 25, ms, '≤ 25 ms'),
      ...(express === null || express === undefined
        ? []
        : check(
            `/v2/hash bytes allocated per request, ${label}`,
            s.median.allocatedBytesPerOp,
            express,
            kb,
            `≤ bare Express 5's ${kb(express)}`,
          )),
    ];
  });
}

function startTargets(scenarios: Scenarios): Target[] {
  const cold = scenarios.cold?.subjects;
  if (!cold) return [];
  return [
    [EMBEDDED, 'embedded'],
    [DISTRIBUTED, 'distributed API node'],
  ].flatMap(([name, label]) => {
    const s = cold[name!];
    if (!s) return [];
    return [
      ...check(`cold start to the first 200, ${label}`, 1000 / s.median.perSecond, 300, ms, '≤ 300 ms'),
      ...check(`RSS after the first 200 (idle), ${label}`, s.median.peakRssBytes, 90 * MiB, mib, '≤ 90 MiB'),
    ];
  });
}

function streamTargets(scenarios: Scenarios): Target[] {
  const stream = scenarios.stream;
  if (!stream) return [];
  const size = /(\d+) MiB/.exec(stream.title)?.[1] ?? '?';
  return [
    [EMBEDDED, 'embedded'],
    [DISTRIBUTED, 'distributed API node'],
  ].flatMap(([name, label]) =>
    check(`/v2/stream ${size} MiB peak RSS, ${label}`, stream.subjects[name!]?.median.peakRssBytes, 120 * MiB, mib, '≤ 120 MiB'),
  );
}

/** Every target the scenarios run cover, one line each. */
export function formatTargets(scenarios: Scenarios): string {
  const targets = [...hashTargets(scenarios), ...startTargets(scenarios), ...streamTargets(scenarios)];
  if (targets.length === 0) return '';
  const width = Math.max(...targets.map((t) => t.figure.length));
  const lines = targets.map((t) => `  ${t.figure.padEnd(width)}  ${t.value.padStart(9)}  target ${t.target}: ${t.met ? 'met' : 'NOT met'}`);
  return ['Targets (ratios against references of the same run; other work on the machine moves absolute figures):', ...lines].join('\n');
}
