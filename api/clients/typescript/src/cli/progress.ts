/**
 * Upload progress bars (cli-progress) on stderr, only when stderr is a terminal: a pipe or a log
 * file gets nothing, so stdout stays the sha224sum lines and stderr stays quiet.
 */
import cliProgress from 'cli-progress';
import type { UploadProgress } from '../upload/source.js';

export interface ProgressBar {
  update(progress: UploadProgress): void;
  stop(): void;
}

const NONE: ProgressBar = { update: () => undefined, stop: () => undefined };

function human(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

export function progressBar(stream: NodeJS.WriteStream, name: string, total: number | undefined): ProgressBar {
  if (!stream.isTTY) return NONE;
  const known = total !== undefined && total > 0;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: known ? '{bar} {percentage}% | {sent} / {size} | {name}' : '{sent} sent | {name}',
      barCompleteChar: '█',
      barIncompleteChar: '░',
      hideCursor: true,
      clearOnComplete: false,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(known ? total : 1, 0, { name, sent: human(0), size: known ? human(total) : '?' });
  return {
    update({ sent }) {
      bar.update(known ? sent : 0, { sent: human(sent) });
    },
    stop() {
      bar.stop();
    },
  };
}
