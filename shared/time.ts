/** v2 timestamps carry milliseconds; v1 examples have second precision (docs/api.md "Resources"). */
export function isoMillis(date: Date = new Date()): string {
  return date.toISOString();
}

let formattedMs = Number.NaN;
let formatted = '';

/**
 * isoMillis(new Date(ms)), formatted once per millisecond: answers given within the same
 * millisecond (v2 bodies, realtime replies) share one string instead of a Date and a format each.
 */
export function isoMillisAt(ms: number): string {
  if (ms !== formattedMs) {
    formatted = new Date(ms).toISOString();
    formattedMs = ms;
  }
  return formatted;
}

export function isoSeconds(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** UTC day key 'YYYY-MM-DD' of usage counters. */
export function utcDay(date: Date = new Date()): string {
  return date.toISOString().slice(0, 10);
}
