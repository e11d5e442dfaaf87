/** C2SP tlog-checkpoint: the note text `<origin>\n<size>\n<base64 root>\n`, signed as a C2SP signed-note. */
import type { KeyObject } from 'node:crypto';
import { HASH_SIZE } from './merkle.js';
import { type NoteVerifier, openNote, signNote } from './note.js';

export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: Buffer;
}

export function checkpointText(cp: Checkpoint): string {
  return `${cp.origin}\n${cp.size}\n${cp.root.toString('base64')}\n`;
}

export function signCheckpoint(cp: Checkpoint, name: string, key: KeyObject): string {
  return signNote(checkpointText(cp), name, key);
}

/** Parses checkpoint text strictly (extension lines are allowed and ignored). */
export function parseCheckpointText(text: string): Checkpoint {
  const [origin, sizeLine, rootLine] = text.split('\n');
  if (!origin || !sizeLine || !rootLine || !/^(0|[1-9][0-9]{0,15})$/u.test(sizeLine)) throw new Error('malformed checkpoint');
  const size = Number(sizeLine);
  const root = Buffer.from(rootLine, 'base64');
  if (!Number.isSafeInteger(size) || root.length !== HASH_SIZE || root.toString('base64') !== rootLine) {
    throw new Error('malformed checkpoint');
  }
  return { origin, size, root };
}

/** Verifies the signature and the origin, then parses. */
export function openCheckpoint(note: string, verifier: NoteVerifier, origin?: string): Checkpoint {
  const cp = parseCheckpointText(openNote(note, verifier));
  if (cp.origin !== (origin ?? verifier.name)) throw new Error(`the checkpoint is for another log (${cp.origin})`);
  return cp;
}
