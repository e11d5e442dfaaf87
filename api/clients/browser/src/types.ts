/** The public types of the client-side SHA-224 library (copied verbatim into dist/sha224.d.mts). */

/** What the library hashes: a string (UTF-8 encoded as TextEncoder does) or bytes. */
export type Message = string | Uint8Array | ArrayBufferLike | ArrayBufferView | readonly number[];

/** Digest formats: lowercase hex (the default), standard padded base64, or the 28 raw bytes. */
export type Encoding = 'hex' | 'base64' | 'bytes';
