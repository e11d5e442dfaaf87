/*! sha224d client-side SHA-224 | MIT */
/** The public types of the client-side SHA-224 library (copied verbatim into dist/sha224.d.ts). */
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
    private finished;
    constructor();
    /** Absorbs message (a string is UTF-8 encoded) and returns this context. */
    update(message: Message): this;
    /** Finishes the hash: lowercase hex unless another encoding is asked for. The context is then spent. */
    digest(encoding?: 'hex' | 'base64'): string;
    digest(encoding: 'bytes'): Uint8Array;
    /** Back to H(0) (FIPS 180-4 §5.3.2) with nothing absorbed. */
    private reset;
    /** A held high surrogate followed by bytes or the end is lone: TextEncoder writes U+FFFD for it. */
    private flushPending;
    /** Absorbs M[0..end): fills the partial block, compresses whole blocks straight from M, keeps the rest. */
    private absorb;
}
/** SHA-224 of message: lowercase hex (56 characters) unless another encoding is asked for. */
export declare const sha224: typeof SHA224Class.hash;
/** True when expectedHash is the hex SHA-224 of message, in either letter case. */
declare function verify(message: Message, expectedHash: string): boolean;
/** HMAC-SHA-224 (FIPS 198-1, RFC 2104) of message under key; a string key is UTF-8 encoded. */
declare function hmac(key: Message, message: Message, encoding?: 'hex' | 'base64'): string;
declare function hmac(key: Message, message: Message, encoding: 'bytes'): Uint8Array;
/** The namespace the IIFE bundle publishes as the global SHA224. */
export declare const SHA224: {
    readonly hash: typeof sha224;
    readonly sha224: typeof sha224;
    readonly verify: typeof verify;
    readonly hmac: typeof hmac;
    readonly SHA224Class: typeof SHA224Class;
};
