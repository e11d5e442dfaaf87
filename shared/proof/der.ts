/**
 * The few DER encodings the time-stamp authority writes by hand: CMS signed attributes are signed
 * as a sorted SET, and the self-signed certificate of embedded mode is small enough to spell out.
 */
export function der(tag: number, ...content: Uint8Array[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  let len: Buffer;
  if (n < 0x80) len = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
    len = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), len, body]);
}

export const seq = (...c: Uint8Array[]): Buffer => der(0x30, ...c);
export const set = (...c: Uint8Array[]): Buffer => der(0x31, ...c);
export const octets = (b: Uint8Array): Buffer => der(0x04, b);
export const utf8 = (s: string): Buffer => der(0x0c, Buffer.from(s, 'utf8'));

export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map((a) => BigInt(a));
  const [a0 = 0n, a1 = 0n, ...rest] = arcs;
  const out: number[] = [];
  for (const arc of [a0 * 40n + a1, ...rest]) {
    const bytes: number[] = [Number(arc & 0x7fn)];
    for (let v = arc >> 7n; v > 0n; v >>= 7n) bytes.unshift(Number((v & 0x7fn) | 0x80n));
    out.push(...bytes);
  }
  return der(0x06, Buffer.from(out));
}

/** A non-negative INTEGER from big-endian bytes (a leading 0x00 added when the top bit is set). */
export function uint(bytes: Uint8Array): Buffer {
  let b = Buffer.from(bytes);
  while (b.length > 1 && b[0] === 0 && ((b[1] ?? 0) & 0x80) === 0) b = b.subarray(1);
  return der(0x02, (b[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

/** UTCTime (years 1950–2049), as RFC 5280 requires for those years. */
export function utcTime(d: Date): Buffer {
  const iso = d.toISOString();
  const s = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return der(0x17, Buffer.from(s, 'ascii'));
}

/** DER SET OF: the elements sorted by their encodings. */
export function setOf(elements: readonly Buffer[]): Buffer {
  return set(...[...elements].sort((a, b) => Buffer.compare(a, b)));
}
