// The bare reference of `npm run bench:bulk`: one Node process doing a bulk item's work and nothing
// else, over the same NDJSON file: parse the line, decode the data, node:crypto sha224, write the
// result line (to a file, as a chunk's results are written). Prints its own CPU time as JSON.
// The digest is crypto.hash, the one-shot call the service uses (shared/hashing/sha224.ts): with
// createHash the loop took a third more CPU per item, which flattered the worker's ratio.
// usage: node bulk-reference.mjs <items.ndjson> <out file>
import { hash } from 'node:crypto';
import fs from 'node:fs';
import { createInterface } from 'node:readline';

const [input, output] = process.argv.slice(2);
const started = process.cpuUsage();
const t0 = performance.now();
const out = fs.createWriteStream(output);
let items = 0;
let pending = '';
for await (const line of createInterface({ input: fs.createReadStream(input), crlfDelay: Infinity })) {
  if (line === '') continue;
  const item = JSON.parse(line);
  const bytes = Buffer.from(item.data, item.encoding ?? 'utf8');
  pending += `{"id":${JSON.stringify(item.id)},"hash":"${hash('sha224', bytes, 'hex')}","bytes":${bytes.length}}\n`;
  items++;
  if (pending.length > 65536) {
    if (!out.write(pending)) await new Promise((resolve) => out.once('drain', resolve));
    pending = '';
  }
}
out.end(pending);
await new Promise((resolve) => out.once('finish', resolve));
const cpu = process.cpuUsage(started);
process.stdout.write(JSON.stringify({ items, seconds: (performance.now() - t0) / 1000, cpu_micros: cpu.user + cpu.system }) + '\n');
