/**
 * The request-string decoders of shared/hashing/encoding.ts (docs/api.md "v2 endpoints", "v1 Set A":
 * utf8, hex, base64). Accepted input decodes to exactly the bytes Buffer.from gives; refused input
 * is INVALID_INPUT naming the field — including the strings Node's own decoders silently truncate.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../shared/errors.js';
import {
  decodedLength,
  decodeInput,
  encodeDigest,
  encodingProblem,
  INPUT_ENCODINGS,
  OUTPUT_FORMATS,
  type InputEncoding,
} from '../../shared/hashing/encoding.js';
import { SHA224_ABC, sha224Bytes } from '../helpers/digests.js';

const HEX_MESSAGE = (field: string) => `${field} is not valid hex (even number of 0-9a-f characters)`;
const BASE64_MESSAGE = (field: string) => `${field} is not valid base64`;

/** The error decodeInput threw, or undefined when it decoded. */
function refusal(data: string, encoding: InputEncoding, field?: string): ServiceError | undefined {
  try {
    decodeInput(data, encoding, field);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return err as ServiceError;
  }
}

function expectRefused(data: string, encoding: InputEncoding, message: string, field = 'data'): void {
  const err = refusal(data, encoding, field === 'data' ? undefined : field);
  expect(err, `${encoding} ${JSON.stringify(data)} was accepted`).toBeDefined();
  expect({ code: err!.code, status: err!.status, message: err!.message, details: err!.details }).toEqual({
    code: 'INVALID_INPUT',
    status: 400,
    message,
    details: `field: ${field}`,
  });
  // The check the request schemas run gives the same verdict and message, without decoding.
  expect(encodingProblem(data, encoding, field)).toBe(message);
}

function expectDecoded(data: string, encoding: InputEncoding, bytes: Buffer): void {
  const decoded = decodeInput(data, encoding);
  expect(decoded.toString('hex'), `${encoding} ${JSON.stringify(data)}`).toBe(bytes.toString('hex'));
  expect(decodedLength(data, encoding)).toBe(bytes.length);
  expect(encodingProblem(data, encoding)).toBeUndefined();
}

describe('the encodings offered', () => {
  it('are the contract lists', () => {
    expect(INPUT_ENCODINGS).toEqual(['utf8', 'hex', 'base64']);
    expect(OUTPUT_FORMATS).toEqual(['hex', 'base64', 'binary']);
  });
});

describe('utf8', () => {
  it.each([
    ['', ''],
    ['abc', '616263'],
    ['héllo', '68c3a96c6c6f'],
    ['☃', 'e29883'],
    ['𝄞', 'f09d849e'],
    ['\u0000', '00'],
    // A lone surrogate cannot be UTF-8: it becomes U+FFFD, as in every JSON-to-UTF-8 path.
    ['\ud800', 'efbfbd'],
  ])('%j decodes to %s', (data, hex) => {
    expectDecoded(data, 'utf8', Buffer.from(hex, 'hex'));
  });

  it('is Buffer.from(data, "utf8") for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (data) => {
        expect(decodeInput(data, 'utf8').equals(Buffer.from(data, 'utf8'))).toBe(true);
        expect(decodedLength(data, 'utf8')).toBe(Buffer.byteLength(data, 'utf8'));
      }),
    );
  });
});

describe('hex', () => {
  it.each([
    ['', ''],
    ['00', '00'],
    ['ff', 'ff'],
    ['FF', 'ff'],
    ['00ff10AB', '00ff10ab'],
    ['616263', '616263'],
  ])('%j decodes to %s', (data, hex) => {
    expectDecoded(data, 'hex', Buffer.from(hex, 'hex'));
  });

  it.each([
    ['odd length', 'a'],
    ['odd length', 'abc'],
    ['a character outside 0-9a-f', 'zz'],
    ['a character outside 0-9a-f', '0g'],
    ['a 0x prefix', '0x00'],
    ['a space', '00 ff'],
    ['a trailing newline', '00\n'],
    ['a full-width digit', '０0'],
  ])('refuses %s: %j', (_why, data) => {
    expectRefused(data, 'hex', HEX_MESSAGE('data'));
  });

  it('names the field it was given', () => {
    expectRefused('abc', 'hex', HEX_MESSAGE('key'), 'key');
  });

  it("refuses what Node's decoder would silently truncate", () => {
    // Buffer.from stops at the first bad pair: hashing its output would hash other bytes than sent.
    expect(Buffer.from('00zz11', 'hex')).toEqual(Buffer.from([0]));
    expectRefused('00zz11', 'hex', HEX_MESSAGE('data'));
  });

  it('round-trips any bytes in lower, upper or mixed case, with their length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('lower', 'upper'), (bytes, letterCase) => {
        const hex = Buffer.from(bytes).toString('hex');
        const data = letterCase === 'upper' ? hex.toUpperCase() : hex;
        expect(decodeInput(data, 'hex').equals(Buffer.from(bytes))).toBe(true);
        expect(decodedLength(data, 'hex')).toBe(bytes.length);
      }),
    );
  });

  it('accepts exactly the strings Buffer.from decodes in full', () => {
    // Node decodes a string completely iff re-encoding gives it back (lower-cased).
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFgx '), maxLength: 12 }), (data) => {
        const whole = Buffer.from(data, 'hex').toString('hex') === data.toLowerCase();
        expect(refusal(data, 'hex') === undefined, JSON.stringify(data)).toBe(whole);
        if (whole) expect(decodeInput(data, 'hex').equals(Buffer.from(data, 'hex'))).toBe(true);
      }),
    );
  });
});

describe('base64', () => {
  it.each([
    ['', ''],
    ['YQ==', '61'],
    ['YWI=', '6162'],
    ['YWJj', '616263'],
    ['AP8Qqw==', '00ff10ab'],
    ['+/8=', 'fbff'],
  ])('RFC 4648 §4 with padding: %j decodes to %s', (data, hex) => {
    expectDecoded(data, 'base64', Buffer.from(hex, 'hex'));
  });

  it.each([
    ['YQ', '61'],
    ['YWI', '6162'],
    ['AP8Qqw', '00ff10ab'],
    ['-_8', 'fbff'],
  ])('RFC 4648 §5 (url-safe, unpadded): %j decodes to %s', (data, hex) => {
    expectDecoded(data, 'base64', Buffer.from(hex, 'hex'));
    expect(decodeInput(data, 'base64').equals(Buffer.from(data, 'base64url'))).toBe(true);
  });

  it('ignores non-zero pad bits as Buffer.from does (RFC 4648 §3.5 lets a decoder accept them)', () => {
    expectDecoded('YR==', 'base64', Buffer.from('a'));
  });

  it.each([
    ['a padding character short', 'YQ='],
    ['a padding character too many', 'YQ==='],
    ['padding alone', '='],
    ['padding on a full quantum', 'YWJj='],
    ['padding in the middle', 'YQ==YQ=='],
    ['a length that is 1 mod 4', 'abcde'],
    ['a character outside both alphabets', 'ab$c'],
    ['a space', 'YW Jj'],
    ['a trailing newline', 'YWJj\n'],
    ['both alphabets at once', 'a+_b'],
    ['the url-safe alphabet with padding', '-_8='],
  ])('refuses %s: %j', (_why, data) => {
    expectRefused(data, 'base64', BASE64_MESSAGE('data'));
  });

  it('names the field it was given', () => {
    expectRefused('ab$c', 'base64', BASE64_MESSAGE('items[3].data'), 'items[3].data');
  });

  it("refuses what Node's decoder would silently truncate", () => {
    // Buffer.from stops at the first padding: the second quantum would not be hashed.
    expect(Buffer.from('YQ==YQ==', 'base64')).toEqual(Buffer.from('a'));
    expectRefused('YQ==YQ==', 'base64', BASE64_MESSAGE('data'));
  });

  it('round-trips any bytes in either alphabet, with their length', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom('base64', 'base64url') as fc.Arbitrary<BufferEncoding>,
        (bytes, form) => {
          const data = Buffer.from(bytes).toString(form);
          expect(decodeInput(data, 'base64').equals(Buffer.from(bytes))).toBe(true);
          expect(decodedLength(data, 'base64')).toBe(bytes.length);
        },
      ),
    );
  });

  it('whatever it accepts decodes as Buffer.from(data, "base64") does; anything else is refused', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'QWYq+/-_=$ '), maxLength: 12 }), (data) => {
        const err = refusal(data, 'base64');
        if (err === undefined) {
          expect(decodeInput(data, 'base64').equals(Buffer.from(data, 'base64'))).toBe(true);
          expect(decodedLength(data, 'base64')).toBe(Buffer.from(data, 'base64').length);
        } else {
          expect(err.message).toBe(BASE64_MESSAGE('data'));
        }
        // encodingProblem gives the same verdict without decoding.
        expect(encodingProblem(data, 'base64')).toBe(err === undefined ? undefined : BASE64_MESSAGE('data'));
      }),
    );
  });
});

describe('encodeDigest', () => {
  const digest = sha224Bytes('abc');

  it.each([
    ['hex', SHA224_ABC],
    ['base64', Buffer.from(SHA224_ABC, 'hex').toString('base64')],
    // `binary` is carried as base64: JSON cannot hold raw bytes (docs/api.md "v1 Set A").
    ['binary', Buffer.from(SHA224_ABC, 'hex').toString('base64')],
  ] as const)('%s', (format, expected) => {
    expect(encodeDigest(digest, format)).toBe(expected);
  });

  it('encodes only the view it is given, not the rest of its buffer', () => {
    const backing = Buffer.concat([Buffer.from('before'), digest, Buffer.from('after')]);
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 6, 28);
    expect(encodeDigest(view, 'hex')).toBe(SHA224_ABC);
  });
});
