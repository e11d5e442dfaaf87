/**
 * `batch FILE.jsonl`: one item per line (`{"id": "a", "data": "…"}`, or a JSON string such as
 * `"hello"`). An item without an id gets its 0-based index among the file's items ("0", "1", …;
 * blank lines are not items), as /v1/batch/hash numbers items without one. Sent in requests of 1000 items (the /v2/batch maximum) with at most
 * `concurrency` requests in flight. Results are printed in input order as JSON lines; memory holds
 * at most `concurrency` requests' items.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { EXIT, UsageError, type CliContext, type ExitCode } from '../context.js';
import { localHash } from '../local-digest.js';
import type { InputEncoding } from './hash.js';

export const BATCH_SIZE = 1000;

interface Item {
  id: string;
  data: string;
}

type Output = 'hex' | 'base64' | 'binary';

/** `index`: the item's 0-based position among the items, its id when it has none. */
function parseItem(line: string, lineNumber: number, index: number, file: string): Item {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new UsageError(`${file}:${lineNumber}: not JSON`);
  }
  if (typeof value === 'string') return { id: String(index), data: value };
  if (typeof value === 'object' && value !== null && typeof (value as { data?: unknown }).data === 'string') {
    const { id, data } = value as { id?: unknown; data: string };
    if (id !== undefined && typeof id !== 'string' && typeof id !== 'number')
      throw new UsageError(`${file}:${lineNumber}: id must be a string`);
    return { id: id === undefined ? String(index) : String(id), data };
  }
  throw new UsageError(`${file}:${lineNumber}: expected {"id": "a", "data": "hello"} or a JSON string such as "hello"`);
}

async function* chunksOf(file: string, input: NodeJS.ReadableStream): AsyncGenerator<Item[]> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let chunk: Item[] = [];
  let lineNumber = 0;
  let index = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    chunk.push(parseItem(line, lineNumber, index, file));
    index += 1;
    if (chunk.length === BATCH_SIZE) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

export async function batchCommand(
  context: CliContext,
  file: string,
  options: { encoding: InputEncoding; output: Output; concurrency: number },
): Promise<ExitCode> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 64) {
    throw new UsageError('--concurrency must be an integer from 1 to 64');
  }
  const input = file === '-' ? context.io.stdin : fs.createReadStream(file);
  // Surface a missing file as a usage error before anything is sent.
  if (file !== '-') fs.accessSync(file, fs.constants.R_OK);
  const hashChunk = async (items: Item[]): Promise<Array<{ id: string; hash: string }>> => {
    if (context.local) {
      const output = options.output === 'hex' ? 'hex' : 'base64';
      return items.map((item) => ({ id: item.id, hash: localHash(Buffer.from(item.data, options.encoding), output) }));
    }
    const response = await context.client().v2.batch({ items, encoding: options.encoding, output: options.output });
    return response.results;
  };
  // In-flight requests in input order; the oldest is printed before another is started past the bound.
  const inFlight: Array<Promise<Array<{ id: string; hash: string }>>> = [];
  const printOldest = async (): Promise<void> => {
    for (const result of await inFlight.shift()!) context.out(JSON.stringify(result));
  };
  try {
    for await (const chunk of chunksOf(file, input)) {
      const request = hashChunk(chunk);
      void request.catch(() => undefined); // awaited in order below; this only keeps an early failure from being "unhandled"
      inFlight.push(request);
      if (inFlight.length >= options.concurrency) await printOldest();
    }
    while (inFlight.length > 0) await printOldest();
  } finally {
    if (input !== context.io.stdin) (input as fs.ReadStream).destroy();
  }
  return EXIT.ok;
}
