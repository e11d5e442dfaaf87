/*! sha224d client-side SHA-224 | MIT */
/**
 * Types of the globals that sha224.min.js defines, for code that loads it with a <script> tag:
 *   /// <reference types="@sha224d/sha224/global" />
 * (or "types": ["@sha224d/sha224/global"] in tsconfig.json).
 */
import type * as Lib from './sha224.mjs';

declare global {
  /** SHA224(message): the SHA-224 hex digest; also .hash, .verify, .hmac and .SHA224Class. */
  var SHA224: Lib.SHA224Function;
  /** The incremental SHA-224 context: new SHA224Class().update(message).digest(). */
  var SHA224Class: typeof Lib.SHA224Class;
  type SHA224Class = Lib.SHA224Class;
}

export {};
