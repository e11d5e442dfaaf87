/** `hash`, `verify`, `hmac` and `url`: one value, or files in the sha224sum format. */
import { EXIT, UsageError, type CliContext, type ExitCode } from '../context.js';
import { digestFile } from '../digest.js';
import { localHash, localHmac } from '../local-digest.js';
import { sumLine } from '../sums.js';
import { isHashMismatch } from '../mismatch.js';

export type InputEncoding = 'utf8' | 'hex' | 'base64';
export type OutputFormat = 'hex' | 'base64';

function decode(text: string, encoding: InputEncoding, what: string): Buffer {
  if (encoding === 'hex' && !/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw new UsageError(`${what} is not valid hex`);
  if (encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new UsageError(`${what} is not valid base64`);
  return Buffer.from(text, encoding);
}

/** `hash TEXT`, `hash -f FILE…`, `hash -` (stdin). */
export async function hashCommand(
  context: CliContext,
  texts: string[],
  options: { file?: string[]; encoding: InputEncoding; output: OutputFormat; expect?: string },
): Promise<ExitCode> {
  if (options.expect !== undefined && !/^[0-9a-fA-F]{56}$/.test(options.expect))
    throw new UsageError('--expect must be 56 hexadecimal characters');
  if (options.file !== undefined) {
    if (texts.length > 0) throw new UsageError('give either TEXT or files with -f, not both');
    return hashFiles(context, options.file, options.expect);
  }
  if (texts.length === 1 && texts[0] === '-') return hashFiles(context, ['-'], options.expect);
  if (options.expect !== undefined) throw new UsageError('--expect is for files (-f) and stdin (-)');
  if (texts.length !== 1) throw new UsageError(texts.length === 0 ? 'nothing to hash: give TEXT, -f FILE… or -' : 'hash takes one TEXT');
  const text = texts[0]!;
  if (context.local) {
    const hash = localHash(decode(text, options.encoding, 'TEXT'), options.output);
    if (context.json) context.printJson({ hash, encoding: options.output, algorithm: 'SHA-224' });
    else context.out(hash);
    return EXIT.ok;
  }
  const response = await context.client().v2.hash({ data: text, encoding: options.encoding, output: options.output });
  if (context.json) context.printJson(response);
  else context.out(response.hash);
  return EXIT.ok;
}

/** With `expect`, the service verifies each file as it arrives; a mismatch is reported and the run exits 1. */
async function hashFiles(context: CliContext, files: string[], expect?: string): Promise<ExitCode> {
  const answers: unknown[] = [];
  if (expect !== undefined && context.local) throw new UsageError('--expect is verified by the service; without --local');
  let mismatched = false;
  for (const name of files) {
    let digest: Awaited<ReturnType<typeof digestFile>>;
    try {
      digest = await digestFile(context, name, expect === undefined ? {} : { expect });
    } catch (err) {
      if (!isHashMismatch(err)) throw err;
      mismatched = true;
      context.err(`${name}: FAILED: the SHA-224 is not ${expect!.toLowerCase()} (${err.code}: ${err.message})`);
      if (context.json) answers.push({ file: name, valid: false, expected: expect!.toLowerCase(), error: err.code });
      continue;
    }
    const { hash, response } = digest;
    if (context.json) answers.push(response ? { file: name, ...response } : { file: name, hash, encoding: 'hex', algorithm: 'SHA-224' });
    else context.out(sumLine(hash, name));
  }
  if (context.json) context.printJson(files.length === 1 ? answers[0] : answers);
  return mismatched ? EXIT.mismatch : EXIT.ok;
}

/** `verify TEXT HASH` or `verify -f FILE HASH`: exit 1 when it does not match. */
export async function verifyCommand(
  context: CliContext,
  subject: string,
  expected: string,
  options: { file?: boolean; encoding: InputEncoding },
): Promise<ExitCode> {
  if (!/^[0-9a-fA-F]{56}$/.test(expected)) throw new UsageError('HASH must be 56 hexadecimal characters');
  let valid: boolean;
  let body: unknown;
  if (options.file) {
    // Through the service the digest is verified on ingest (X-Expected-SHA224 / tus metadata sha224).
    let hash: string | undefined;
    try {
      hash = (await digestFile(context, subject, context.local ? {} : { expect: expected })).hash;
    } catch (err) {
      if (!isHashMismatch(err)) throw err;
    }
    valid = hash === expected.toLowerCase();
    body = { file: subject, valid, expected: expected.toLowerCase(), ...(hash === undefined ? {} : { computed: hash }) };
  } else if (context.local) {
    const hash = localHash(decode(subject, options.encoding, 'TEXT'));
    valid = hash === expected.toLowerCase();
    body = { valid, expected_hash: hash, provided_hash: expected };
  } else {
    const response = await context.client().v2.verify({ data: subject, hash: expected, encoding: options.encoding });
    valid = response.valid;
    body = response;
  }
  if (context.json) context.printJson(body);
  else context.out(options.file ? `${subject}: ${valid ? 'OK' : 'FAILED'}` : valid ? 'OK' : 'FAILED');
  return valid ? EXIT.ok : EXIT.mismatch;
}

/** `hmac TEXT --secret S`. */
export async function hmacCommand(
  context: CliContext,
  text: string,
  options: { secret?: string; secretEncoding: InputEncoding; encoding: InputEncoding; output: OutputFormat },
): Promise<ExitCode> {
  if (options.secret === undefined) throw new UsageError('hmac needs --secret <secret>');
  if (context.local) {
    const hmac = localHmac(
      decode(options.secret, options.secretEncoding, '--secret'),
      decode(text, options.encoding, 'TEXT'),
      options.output,
    );
    if (context.json) context.printJson({ hmac, encoding: options.output, algorithm: 'HMAC-SHA-224' });
    else context.out(hmac);
    return EXIT.ok;
  }
  const response = await context.client().v2.hmac({
    data: text,
    key: options.secret,
    key_encoding: options.secretEncoding,
    encoding: options.encoding,
    output: options.output,
  });
  if (context.json) context.printJson(response);
  else context.out(response.hmac);
  return EXIT.ok;
}

/** `url URL`: the service fetches the URL and hashes its body (/v1/hash/url). */
export async function urlCommand(context: CliContext, url: string, options: { timeout?: number }): Promise<ExitCode> {
  if (context.local) throw new UsageError('--local cannot be used with url: the service fetches the URL');
  const response = await context.client().v1.hashUrl({ url, timeout: options.timeout });
  if (context.json) context.printJson(response);
  else context.out(sumLine(response.hash, url));
  return EXIT.ok;
}
