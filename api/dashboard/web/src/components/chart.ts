/**
 * A stacked bar chart in SVG, one bar per day (no chart library, nothing loaded from elsewhere).
 * Colours come from CSS classes (series-0 … series-5) so the CSP needs no inline style; the chart
 * has a title and a description for screen readers, and the same figures are in the table beside it.
 */
import { formatNumber, svg } from '../dom.js';

export interface Series {
  name: string;
  values: number[];
}

const WIDTH = 720;
const HEIGHT = 240;
// The left pad holds the y labels at the 22-unit font a phone gets (components.css): "50,000" needs ~75 units.
const PAD = { top: 12, right: 8, bottom: 32, left: 84 };

/** A round maximum for the y axis: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

export function stackedBars(title: string, days: string[], series: Series[]): SVGElement {
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const top = niceMax(Math.max(0, ...totals));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;

  const root = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-labelledby': 'chart-title chart-desc' });
  root.append(svg('title', { id: 'chart-title' }, title));
  const peak = Math.max(0, ...totals);
  root.append(
    svg(
      'desc',
      { id: 'chart-desc' },
      `${days.length} days from ${days[0] ?? ''} to ${days[days.length - 1] ?? ''}; busiest day ${formatNumber(peak)} requests.`,
    ),
  );

  for (const fraction of [0, 0.5, 1]) {
    const v = top * fraction;
    root.append(svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v), class: 'grid' }));
    root.append(svg('text', { x: PAD.left - 6, y: y(v) + 4, class: 'axis', 'text-anchor': 'end' }, formatNumber(v)));
  }
  days.forEach((day, i) => {
    let base = 0;
    const x = PAD.left + i * slot + (slot - barW) / 2;
    series.forEach((s, si) => {
      const v = s.values[i] ?? 0;
      if (v <= 0) return;
      const rect = svg('rect', { x, y: y(base + v), width: barW, height: Math.max(0.5, y(base) - y(base + v)), class: `series-${si % 6}` });
      rect.append(svg('title', {}, `${day} — ${s.name}: ${formatNumber(v)}`));
      root.append(rect);
      base += v;
    });
    // A date under the first bar, the last, and about every week between.
    if (i === 0 || i === days.length - 1 || (days.length > 10 && i % 7 === 0 && days.length - 1 - i > 3)) {
      // The first and last labels hug the plot's edges so neither is cut off.
      const anchor = i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle';
      const lx = anchor === 'start' ? x : anchor === 'end' ? x + barW : x + barW / 2;
      root.append(svg('text', { x: lx, y: HEIGHT - 8, class: 'axis', 'text-anchor': anchor }, day.slice(5)));
    }
  });
  return root;
}

export function legend(series: Series[]): HTMLElement {
  const ul = document.createElement('ul');
  ul.className = 'legend';
  series.forEach((s, i) => {
    const li = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = `swatch series-${i % 6}`;
    swatch.setAttribute('aria-hidden', 'true');
    li.append(swatch, document.createTextNode(s.name));
    ul.append(li);
  });
  return ul;
}
