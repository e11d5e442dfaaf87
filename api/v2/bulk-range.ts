/**
 * The `Range` of a results request (RFC 9110 §14.2), over a representation of `length` bytes:
 * one range of the `bytes` unit, `first-last`, `first-` or `-suffix`. Anything else (another unit,
 * several ranges, a malformed value, an `If-Range`, which no validator of ours can match) is
 * ignored and the whole representation is sent, as RFC 9110 §14.2 allows (docs/api.md "Bulk jobs").
 */
export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; first: number; last: number } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

export function resolveRange(header: string | undefined, ifRange: string | undefined, length: number): RangeAnswer {
  if (header === undefined || ifRange !== undefined) return { kind: 'whole' };
  const match = SINGLE_RANGE.exec(header.replaceAll(' ', ''));
  if (match === null) return { kind: 'whole' };
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return { kind: 'whole' };
  if (from === '') {
    // A suffix: the last `to` bytes (RFC 9110 §14.1.3); a zero-length suffix selects nothing.
    const suffix = Number(to);
    if (suffix === 0 || length === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', first: Math.max(0, length - suffix), last: length - 1 };
  }
  const first = Number(from);
  const last = to === '' ? Number.MAX_SAFE_INTEGER : Number(to);
  // `last` before `first` is not a valid range-spec (RFC 9110 §14.1.1): ignored, like any other malformed one.
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last < first) return { kind: 'whole' };
  if (first >= length) return { kind: 'unsatisfiable' };
  return { kind: 'part', first, last: Math.min(last, length - 1) };
}
