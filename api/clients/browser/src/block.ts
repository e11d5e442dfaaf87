/**
 * The SHA-224 block engine: the SHA-256 compression function (FIPS 180-4 §6.2.2) over 512-bit
 * blocks. SHA-224 is SHA-256 with its own initial hash value (FIPS 180-4 §5.3.2) and the output truncated
 * to seven words (FIPS 180-4 §6.3). No imports, no Node built-ins: this file runs in any ES2020 engine.
 */

/**
 * K (FIPS 180-4 §4.2.2): the first 32 bits of the fractional parts of the cube roots of the first
 * 64 primes. Computed instead of listed, which saves ~300 bytes of the gzipped bundle. It is exact in
 * any engine: the nearest any of the 64 scaled fractions comes to an integer is 0.0247 (exact
 * BigInt cube roots, test/sdk/constants.test.ts), so a Math.cbrt wrong by up to ~10^4 ulps would
 * still give this table; the same test compares it with the table printed in FIPS 180-4 §4.2.2.
 */
export const K: Int32Array = new Int32Array(64);
for (let n = 2, i = 0; i < 64; n++) {
  let d = 2;
  while (n % d) d++;
  // Storing into an Int32Array truncates and wraps: the 32-bit word with its sign bit reinterpreted.
  if (d === n) K[i++] = (Math.cbrt(n) % 1) * 2 ** 32;
}

/** The SHA-224 initial hash value H(0) (FIPS 180-4 §5.3.2), as signed 32-bit words. */
export const IV: Int32Array = new Int32Array([
  0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
]);

/**
 * Runs the compression function over the 64-byte blocks M[offset..end), updating the state H in
 * place. Invariant: end - offset is a multiple of 64 and end <= M.length.
 *
 * Shaped for V8's optimizing tiers and for gzip; each choice measured in Node 20 and Chromium 156
 * (MB/s at 64 KiB, Node / Chromium, best rounds on the shared machine):
 * - a plain 64-iteration loop over an Int32Array W (noble's shape) gives ~190 / ~215;
 * - holding the message schedule in 16 locals W0..W15, extended in place as a rolling window
 *   (FIPS 180-4 §6.2.2 step 1: W_t replaces W_t-16), and unrolling 16 rounds gives ~275 / ~270: the schedule
 *   then lives in registers;
 * - words are read big-endian straight from the caller's bytes, with no copy into a block buffer;
 * - Σ0, Σ1, σ0, σ1, Ch and Maj (FIPS 180-4 §4.1.2) are written inline: as helper functions, Node 20 stops
 *   inlining them in a function this large and drops to ~65 (σ helpers alone: ~195);
 * - one loop of four passes, each 16 rounds followed by the next 16 schedule steps (skipped after
 *   the last pass): ~108 gzipped bytes less than a separate copy of rounds 0..15 with the schedule
 *   interleaved in rounds 16..63, for ~8% less speed (Node 20: ~238 instead of ~259 at 64 KiB),
 *   which is what fits SHA224Class's clone()/destroy() and the incremental HMAC in the budget;
 * - K is read as K[t++], so the 64 rounds are the same text but for the W variable;
 * - each round is written exactly as FIPS 180-4 §6.2.2 step 3 (T1, T2, then h = g ... a = T1 + T2): V8 turns
 *   the moves into register renames, so it measured as fast as rotating the variable names, and
 *   every round is the same text, which gzip stores in a few bytes. The same goes for the
 *   temporaries x and y of the schedule step and the running offset of the loads: together ~650
 *   gzipped bytes less, which is what fits the bundle in its size budget.
 * ROTR^n(x) is written (x >>> n | x << 32 - n), which V8 compiles to one rotate instruction;
 * Ch(e, f, g) = g ^ e & (f ^ g) and Maj(a, b, c) = a & b | c & (a | b) are the FIPS 180-4 §4.1.2 functions
 * with fewer operations.
 */
export function compress(H: Int32Array, M: Uint8Array, offset: number, end: number): void {
  let h0 = H[0]!,
    h1 = H[1]!,
    h2 = H[2]!,
    h3 = H[3]!,
    h4 = H[4]!,
    h5 = H[5]!,
    h6 = H[6]!,
    h7 = H[7]!;
  for (; offset < end;) {
    // FIPS 180-4 §6.2.2 step 1 for t = 0..15: W_t is the block's t-th word, read big-endian.
    let W0 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W1 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W2 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W3 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W4 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W5 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W6 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W7 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W8 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W9 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W10 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W11 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W12 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W13 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W14 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    let W15 = (M[offset]! << 24) | (M[offset + 1]! << 16) | (M[offset + 2]! << 8) | M[offset + 3]!;
    offset += 4;
    // FIPS 180-4 §6.2.2 step 2.
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4,
      f = h5,
      g = h6,
      h = h7,
      T1: number,
      T2: number,
      x: number,
      y: number;
    for (let t = 0; ;) {
      // FIPS 180-4 §6.2.2 step 3, rounds t..t+15, with W_t..W_t+15 in W0..W15.
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W0) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W1) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W2) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W3) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W4) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W5) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W6) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W7) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W8) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W9) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W10) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W11) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W12) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W13) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W14) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      T1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[t++]! + W15) | 0;
      T2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + T1) | 0;
      d = c;
      c = b;
      b = a;
      a = (T1 + T2) | 0;
      if (t === 64) break;
      // FIPS 180-4 §6.2.2 step 1 for the next 16 rounds: W_t+16 = σ1(W_t+14) + W_t+9 + σ0(W_t+1) + W_t, with
      // x = W_t+14 and y = W_t+1; W_t+16 overwrites W_t in the same variable.
      x = W14;
      y = W1;
      W0 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W9 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W0) |
        0;
      x = W15;
      y = W2;
      W1 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W10 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W1) |
        0;
      x = W0;
      y = W3;
      W2 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W11 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W2) |
        0;
      x = W1;
      y = W4;
      W3 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W12 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W3) |
        0;
      x = W2;
      y = W5;
      W4 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W13 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W4) |
        0;
      x = W3;
      y = W6;
      W5 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W14 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W5) |
        0;
      x = W4;
      y = W7;
      W6 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W15 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W6) |
        0;
      x = W5;
      y = W8;
      W7 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W0 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W7) |
        0;
      x = W6;
      y = W9;
      W8 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W1 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W8) |
        0;
      x = W7;
      y = W10;
      W9 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W2 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W9) |
        0;
      x = W8;
      y = W11;
      W10 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W3 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W10) |
        0;
      x = W9;
      y = W12;
      W11 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W4 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W11) |
        0;
      x = W10;
      y = W13;
      W12 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W5 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W12) |
        0;
      x = W11;
      y = W14;
      W13 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W6 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W13) |
        0;
      x = W12;
      y = W15;
      W14 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W7 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W14) |
        0;
      x = W13;
      y = W0;
      W15 =
        ((((x >>> 17) | (x << 15)) ^ ((x >>> 19) | (x << 13)) ^ (x >>> 10)) +
          W8 +
          (((y >>> 7) | (y << 25)) ^ ((y >>> 18) | (y << 14)) ^ (y >>> 3)) +
          W15) |
        0;
    }
    // FIPS 180-4 §6.2.2 step 4: H(i) = H(i-1) + the working variables.
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  H[0] = h0;
  H[1] = h1;
  H[2] = h2;
  H[3] = h3;
  H[4] = h4;
  H[5] = h5;
  H[6] = h6;
  H[7] = h7;
}
