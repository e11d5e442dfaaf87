/**
 * shared/log-lines.ts: lines written in one event-loop turn reach the destination as one write, in
 * order, and none is left behind when the process exits.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineBatch, type LineTarget } from '../../shared/log-lines.js';
import { waitFor } from '../helpers/wait.js';

function recorder(): LineTarget & { writes: string[]; syncFlushes: number } {
  const target = {
    writes: [] as string[],
    syncFlushes: 0,
    write(chunk: string) {
      target.writes.push(chunk);
      return true;
    },
    flushSync() {
      target.syncFlushes++;
    },
  };
  return target;
}

describe('LineBatch', () => {
  it('hands the lines of one turn over as one write, in order', async () => {
    const target = recorder();
    const batch = new LineBatch(target);
    batch.write('a\n');
    batch.write('b\n');
    batch.write('c\n');
    expect(target.writes).toEqual([]);
    await waitFor(() => target.writes.length > 0);
    expect(target.writes).toEqual(['a\nb\nc\n']);
    batch.write('d\n');
    await waitFor(() => target.writes.length > 1);
    expect(target.writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('flushSync hands pending lines over before flushing the destination', () => {
    const target = recorder();
    const batch = new LineBatch(target);
    batch.write('x\n');
    batch.write('y\n');
    batch.flushSync();
    expect(target.writes).toEqual(['x\ny\n']);
    expect(target.syncFlushes).toBe(1);
  });

  it('writes every line of a process that exits at once after logging them', () => {
    const root = path.join(import.meta.dirname, '..', '..');
    const script = [
      "import { createLogger } from './shared/log.ts';",
      "const logger = createLogger('info');",
      "for (let i = 0; i < 2000; i++) logger.info({ i }, 'line');",
      'process.exit(0);',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { i: number });
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });
});
