/**
 * C2SP tlog-proof@v1: a self-contained, offline-verifiable proof that an entry is in a log. Here the
 * `extra` line carries the leaf record itself, so the proof alone says what was logged.
 */
import { HASH_SIZE } from './merkle.js';

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

export interface TlogProof {
  readonly extra?: Buffer;
  readonly index: number;
  readonly hashes: readonly Buffer[];
  /** The signed checkpoint note, as served. */
  readonly checkpoint: string;
}

export function formatTlogProof(p: TlogProof): string {
  return tlogProofText(tlogProofHead(p), p.checkpoint);
}

/** The whole proof from its head (tlogProofHead) and the checkpoint note, a blank line between. */
export function tlogProofText(head: string, checkpoint: string): string {
  return `${head}${TLOG_PROOF_NEWLINE}${TLOG_PROOF_NEWLINE}${checkpoint}`;
}

/** The line break of the proof's text; a blank line (two of them) separates its hashes from the checkpoint. */
export const TLOG_PROOF_NEWLINE = '\n';

/**
 * The proof's lines up to its hashes: the header, the `extra` line (base64) if any, the `index`
 * line, each after `newline`. The one place their layout is written: a receipt's JSON
 * (api/http/receipt-body.ts) writes the same lines with `newline` as JSON escapes it, and its
 * hashes and checkpoint after them.
 */
export function tlogProofLead(index: number, extraBase64: string | undefined, newline: string = TLOG_PROOF_NEWLINE): string {
  const extra = extraBase64 === undefined ? '' : `${newline}extra ${extraBase64}`;
  return `${TLOG_PROOF_HEADER}${extra}${newline}index ${index}`;
}

/**
 * The proof's text before the blank line and the checkpoint: its lines are ASCII, so a receipt keeps
 * them apart from the note (whose signature line is not) to write them cheaply. `encoded`: the
 * extra data and the hashes already in base64 (a receipt writes them twice).
 */
export function tlogProofHead(p: Omit<TlogProof, 'checkpoint'>, encoded?: { extra?: string; hashes?: readonly string[] }): string {
  const extra = p.extra ? (encoded?.extra ?? p.extra.toString('base64')) : undefined;
  let text = tlogProofLead(p.index, extra);
  for (const hash of encoded?.hashes ?? p.hashes.map((h) => h.toString('base64'))) text += `${TLOG_PROOF_NEWLINE}${hash}`;
  return text;
}

export function parseTlogProof(text: string): TlogProof {
  const split = text.indexOf('\n\n');
  if (split < 0) throw new Error('malformed tlog-proof');
  const lines = text.slice(0, split).split('\n');
  const checkpoint = text.slice(split + 2);
  if (lines.shift() !== TLOG_PROOF_HEADER) throw new Error('not a c2sp.org/tlog-proof@v1 proof');
  let extra: Buffer | undefined;
  if (lines[0]?.startsWith('extra ')) {
    const b64 = lines.shift()?.slice(6) ?? '';
    extra = Buffer.from(b64, 'base64');
    if (extra.toString('base64') !== b64) throw new Error('malformed tlog-proof extra data');
  }
  const indexLine = lines.shift() ?? '';
  const m = /^index (0|[1-9][0-9]{0,15})$/u.exec(indexLine);
  if (!m?.[1]) throw new Error('malformed tlog-proof index');
  const hashes = lines.map((line) => {
    const h = Buffer.from(line, 'base64');
    if (h.length !== HASH_SIZE || h.toString('base64') !== line) throw new Error('malformed tlog-proof hash');
    return h;
  });
  return { ...(extra ? { extra } : {}), index: Number(m[1]), hashes, checkpoint };
}
