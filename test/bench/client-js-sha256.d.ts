// js-sha256's pure-JavaScript UMD build ships no types of its own (its package types cover the
// main entry, which in Node wraps node:crypto). Only what the client benchmark calls.
declare module 'js-sha256/build/sha256.js' {
  const jsSha256: { sha224(message: string | number[] | ArrayBuffer | Uint8Array): string };
  export default jsSha256;
}
