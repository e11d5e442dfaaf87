/*! sha224d client-side SHA-224 | MIT */
/** The public types of the client-side SHA-224 library (copied verbatim into dist/sha224.d.mts). */
/** What the library hashes: a string (UTF-8 encoded as TextEncoder does) or bytes. */
export type Message = string | Uint8Array | ArrayBufferLike | ArrayBufferView | readonly number[];
/** Digest formats: lowercase hex (the default), standard padded base64, or the 28 raw bytes. */
export type Encoding = 'hex' | 'base64' | 'bytes';

/** An incremental SHA-224 context: update() any number of times, then digest() once. */
export declare class SHA224Class {
    /** SHA-224 of message: lowercase hex (56 characters) unless another encoding is asked for. */
    static hash(this: void, message: Message, encoding?: 'hex' | 'base64'): string;
    static hash(this: void, message: Message, encoding: 'bytes'): Uint8Array;
    /** The intermediate hash value H(i) (FIPS 180-4 §6.2.2). */
    private readonly state;
    /** A partial block: block[0..pos) are bytes not yet compressed. */
    private readonly block;
    private pos;
    /** Bytes absorbed so far; exact up to 2^53. */
    private total;
    /** A high surrogate that ended the last string, held back in case the next string starts with its low half. */
    private pending;
    /** Set by digest() and destroy(); the state is zeroed then. */
    private finished;
    constructor();
    /** Absorbs message (a string is UTF-8 encoded) and returns this context. */
    update(message: Message): this;
    /** Finishes the hash: lowercase hex unless another encoding is asked for. The context is then finished and zeroed. */
    digest(encoding?: 'hex' | 'base64'): string;
    digest(encoding: 'bytes'): Uint8Array;
    /** An independent copy of this context: updating either leaves the other as it was. */
    clone(): SHA224Class;
    /** Zeroes the state and the buffered input; any later update(), digest() or clone() throws. */
    destroy(): void;
    /** Back to H(0) (FIPS 180-4 §5.3.2) with nothing absorbed. */
    private reset;
    private check;
    /** A held high surrogate followed by bytes or the end is lone: TextEncoder writes U+FFFD for it. */
    private flushPending;
    /** Absorbs M[0..end): fills the partial block, compresses whole blocks straight from M, keeps the rest. */
    private absorb;
}

/** An incremental HMAC-SHA-224: update() any number of times, then digest() once. */
export declare class HmacSHA224 {
    /** SHA-224 context over K0 ⊕ ipad, then the message (FIPS 198-1 §4 steps 4-6). */
    private inner;
    /** SHA-224 context over K0 ⊕ opad, given the inner digest at the end (steps 7-9). */
    private outer;
    /** key: bytes, or a string (UTF-8 encoded); a key longer than the 64-byte block is hashed first. */
    constructor(key: Message);
    /** Absorbs message (a string is UTF-8 encoded) and returns this context. */
    update(message: Message): this;
    /** The MAC: lowercase hex unless another encoding is asked for. The context is then finished and zeroed. */
    digest(encoding?: 'hex' | 'base64'): string;
    digest(encoding: 'bytes'): Uint8Array;
    /** An independent copy: the key stays absorbed in both, so one key can MAC many messages from one prefix. */
    clone(): HmacSHA224;
    /** Zeroes both contexts (and with them every trace of the key); any later use throws. */
    destroy(): void;
}

/**
 * Client-side SHA-224 (FIPS 180-4) and HMAC-SHA-224 (FIPS 198-1), computed locally with no HTTP
 * call: docs/api.md "Client-side library" — SHA224(message) with its alias
 * SHA224.hash, new SHA224Class() with update/digest, SHA224Class.hash, SHA224.verify. Browsers'
 * WebCrypto has no SHA-224, so this fills that gap. Pure JavaScript, no dependencies and no Node
 * built-ins. Built by api/clients/browser/build.ts into dist/sha224.mjs (ESM) and
 * dist/sha224.min.js (IIFE defining the globals SHA224 and SHA224Class).
 */
/** A one-shot SHA-224: lowercase hex (56 characters) unless another encoding is asked for. */
export interface HashFunction {
    (message: Message, encoding?: 'hex' | 'base64'): string;
    (message: Message, encoding: 'bytes'): Uint8Array;
}
/** HMAC-SHA-224 of message under key, one-shot; create(key) gives an incremental context. */
export interface HmacFunction {
    (key: Message, message: Message, encoding?: 'hex' | 'base64'): string;
    (key: Message, message: Message, encoding: 'bytes'): Uint8Array;
    /** An incremental HMAC-SHA-224 context under key (the same as new HmacSHA224(key)). */
    readonly create: (key: Message) => HmacSHA224;
}
/** The library: callable as SHA224(message) (a string is UTF-8 encoded), with the other operations of docs/api.md "Client-side library" as properties. */
export interface SHA224Function extends HashFunction {
    /** SHA224(message) under the contract's alias: SHA224.hash(message). */
    readonly hash: HashFunction;
    /** True when expectedHash is the hex SHA-224 of message, in either letter case. */
    readonly verify: (message: Message, expectedHash: string) => boolean;
    /** HMAC-SHA-224 (FIPS 198-1, RFC 2104); a string key is UTF-8 encoded. */
    readonly hmac: HmacFunction;
    /** The incremental context class (in the IIFE also the global SHA224Class). */
    readonly SHA224Class: typeof SHA224Class;
}
/** The library object: SHA224(message), SHA224.hash, .verify, .hmac, .SHA224Class. */
export declare const SHA224: SHA224Function;
/** SHA224 under a lower-case name, for code that prefers one. */
export declare const sha224: SHA224Function;
export default SHA224;
