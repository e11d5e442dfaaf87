/**
 * Building the page without innerHTML: every value reaches the DOM as text or an attribute, so
 * nothing the API returns (a key description, an application name) can become markup. No inline
 * styles either (the CSP has no 'unsafe-inline'): looks come from classes in styles/app.css.
 */
type Child = Node | string | number | null | undefined | false;
type Handler = (event: Event) => void;

export interface Attrs {
  [name: string]: string | number | boolean | null | undefined | Handler | Record<string, Handler>;
}

/** h('button', { class: 'primary', type: 'button', on: { click } }, 'Save') */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'on' && typeof value === 'object' && value !== null) {
      for (const [event, handler] of Object.entries(value)) el.addEventListener(event, handler);
    } else if (name === 'style') {
      throw new Error('inline styles are not allowed (CSP style-src self)');
    } else if (value === true) {
      el.setAttribute(name, '');
    } else if (value !== false && value !== null && value !== undefined && typeof value !== 'function' && typeof value !== 'object') {
      el.setAttribute(name, String(value));
    }
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: Array<Node | string>): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  for (const child of children) el.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  return el;
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

let idCounter = 0;
/** A unique id for label/field pairs. */
export function uid(prefix: string): string {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const numbers = new Intl.NumberFormat();

export function formatDateTime(iso: string | null, empty = '—'): string {
  return iso === null ? empty : dateTime.format(new Date(iso));
}

export function formatDate(iso: string | null, empty = '—'): string {
  return iso === null ? empty : dateOnly.format(new Date(iso));
}

export function formatNumber(n: number | null, unlimited = 'unlimited'): string {
  return n === null ? unlimited : numbers.format(n);
}

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${numbers.format(Math.round(value * 10) / 10)} ${units[unit]}`;
}

/** "3 minutes ago", for last-used columns. */
export function relativeTime(iso: string | null, now = Date.now(), never = 'never'): string {
  if (iso === null) return never;
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const steps: Array<[number, Intl.RelativeTimeFormatUnit]> = [
    [60, 'second'],
    [60, 'minute'],
    [24, 'hour'],
    [30, 'day'],
    [12, 'month'],
  ];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return rtf.format(value, unit);
    value = Math.round(value / size);
  }
  return rtf.format(value, 'year');
}

/** Lines of a textarea → trimmed, non-empty entries. */
export function lines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}
