/**
 * `sha224d verify FILE --receipt R [--log-key K]`: proves offline, with no server, that the log whose
 * key is K signed a checkpoint containing this file's SHA-224 (the SDK's verifyReceipt). The file is
 * hashed here with node:crypto, streamed, so any size works.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ReceiptVerificationError, verifyReceipt, type ReceiptInput } from '../../receipt.js';
import { type CliContext, EXIT, type ExitCode, UsageError } from '../context.js';

async function sha224OfFile(file: string): Promise<{ digest: string; bytes: number }> {
  const hash = createHash('sha224');
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { digest: hash.digest('hex'), bytes };
}

/** A receipt file: the service's JSON answer (or its `receipt`), or the tlog-proof text itself. */
function parseReceiptFile(text: string): { input: ReceiptInput; logKey?: string } {
  // Editors and `jq -r` end a file with one more newline than the note's own: drop the extras.
  if (text.startsWith('c2sp.org/tlog-proof@v1\n')) return { input: text.replace(/\n+$/u, '\n') };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError('the receipt file is neither a receipt JSON nor a c2sp.org/tlog-proof@v1 text');
  }
  const obj = (json as { receipt?: unknown }).receipt ?? json;
  const { tlog_proof: proof, log_key: logKey } = obj as { tlog_proof?: unknown; log_key?: unknown };
  if (typeof proof !== 'string') throw new UsageError('the receipt JSON has no tlog_proof');
  return { input: proof, ...(typeof logKey === 'string' ? { logKey } : {}) };
}

export async function verifyReceiptCommand(
  context: CliContext,
  file: string,
  options: { receipt: string; logKey?: string },
): Promise<ExitCode> {
  const { input, logKey: carried } = parseReceiptFile(await readFile(options.receipt, 'utf8'));
  const pinned = options.logKey ?? context.io.env.SHA224D_LOG_KEY;
  const logKey = pinned ?? carried;
  if (!logKey) throw new UsageError('give the log key with --log-key (or SHA224D_LOG_KEY)');
  if (!pinned) context.err('warning: the log key was taken from the receipt itself; pin the log key with --log-key to prove who signed it');
  const { digest, bytes } = await sha224OfFile(file);
  try {
    const proven = await verifyReceipt(input, { digest, logKey });
    if (context.json) context.printJson({ file, valid: true, ...proven, loggedAt: proven.loggedAt.toISOString() });
    else {
      context.out(`${file}: OK`);
      context.out(`  SHA-224 ${digest} (${bytes} bytes)`);
      context.out(`  is entry ${proven.index} of the log ${proven.origin}, logged at ${proven.loggedAt.toISOString()}`);
      context.out(`  in its signed checkpoint of tree size ${proven.treeSize} (root ${proven.rootHash})`);
      context.out(`  verified offline with the key ${logKey}`);
    }
    return EXIT.ok;
  } catch (err) {
    if (!(err instanceof ReceiptVerificationError)) throw err;
    if (context.json) context.printJson({ file, valid: false, digest, reason: err.message });
    else context.out(`${file}: FAILED (${err.message})`);
    return EXIT.mismatch;
  }
}
