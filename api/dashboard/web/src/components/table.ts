/**
 * Tables that stay readable on a 375 px screen: below 640 px each row becomes a card, and each cell
 * shows its column name (data-label, read by styles/app.css) before its value.
 */
import { h } from '../dom.js';

export interface Column<T> {
  label: string;
  cell(row: T): Node | string;
  className?: string;
}

/** `keep`: stay a table on narrow screens (short numeric rows read better as rows than as cards). */
export function table<T>(
  caption: string,
  columns: Array<Column<T>>,
  rows: T[],
  empty: string,
  options: { keep?: boolean } = {},
): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: options.keep ? 'responsive keep' : 'responsive' },
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col', class: c.className }, c.label)))),
      h(
        'tbody',
        {},
        ...rows.map((row) => h('tr', {}, ...columns.map((c) => h('td', { 'data-label': c.label, class: c.className }, c.cell(row))))),
      ),
    ),
  );
}

export function badge(text: string, kind: string): HTMLElement {
  return h('span', { class: `badge ${kind}` }, text);
}
