/** v2 timestamps carry milliseconds; v1 examples have second precision (SPEC "Resources and their fields"). */
export function isoMillis(date: Date = new Date()): string {
  return date.toISOString();
}

export function isoSeconds(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** UTC day key 'YYYY-MM-DD' of usage counters. */
export function utcDay(date: Date = new Date()): string {
  return date.toISOString().slice(0, 10);
}
