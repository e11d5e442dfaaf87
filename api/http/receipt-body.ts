/** A transparency log receipt as JSON (docs/proving.md), the same on every route that answers one (v1 and v2). */
import type { NextFunction, Response } from 'express';
import type { LoggedReceipt, Receipt, ReceiptWaiter } from '../../shared/proof/log.js';
import { TLOG_PROOF_NEWLINE, tlogProofLead } from '../../shared/proof/tlog-proof.js';
import type { Body } from '../schemas/common.js';
import { sendJsonText } from './send-json.js';
import type * as proof from '../schemas/proof.js';

export function receiptBody(logged: LoggedReceipt): Body<typeof proof.Receipt> {
  const { receipt, logKey } = logged;
  return { ...leadingFields(receipt), checkpoint: receipt.checkpoint, tlog_proof: receipt.tlogProof, log_key: logKey };
}

/** The receipt's fields before `checkpoint`, in the order the answer writes them. */
function leadingFields(receipt: Receipt) {
  return {
    id: receipt.id,
    index: receipt.index,
    leaf: {
      digest: receipt.leaf.digest,
      length: receipt.leaf.length,
      source: receipt.leaf.source,
      account: receipt.leaf.account,
      time: leafTime(receipt.leaf.timeMs),
    },
    leaf_base64: receipt.leafBase64,
    tree_size: receipt.treeSize,
    root_hash: receipt.rootHashBase64,
    inclusion_proof: [...receipt.inclusionProofBase64],
  };
}

/**
 * The JSON of the checkpoint note, and the answer's end (the note's JSON without its opening quote,
 * then the log key), kept for the last note and key seen: every receipt of a batch names the same
 * checkpoint, and the note's signature line holds an em dash, which would make the whole answer a
 * two-byte string to scan, measure and encode again per request.
 */
let last: { note: string; key: string; noteJson: Buffer; tail: Buffer } | undefined;

function checkpointParts(note: string, key: string): { noteJson: Buffer; tail: Buffer } {
  if (last?.note !== note || last.key !== key) {
    const noteJson = JSON.stringify(note);
    last = { note, key, noteJson: Buffer.from(noteJson), tail: Buffer.from(`${noteJson.slice(1)},"log_key":${JSON.stringify(key)}}}`) };
  }
  return last;
}

let leafTimeMs = Number.NaN;
let leafTimeIso = '';

/**
 * The leaf's time in ISO form, formatted once per millisecond: a batch's leaves mostly share one
 * (kept apart from shared/time.ts isoMillisAt, which the answer's own timestamp, a later one, uses).
 */
function leafTime(ms: number): string {
  if (ms !== leafTimeMs) {
    leafTimeIso = new Date(ms).toISOString();
    leafTimeMs = ms;
  }
  return leafTimeIso;
}

/** The tlog-proof's line break inside a JSON string: its only character JSON escapes. */
const NEWLINE_JSON = JSON.stringify(TLOG_PROOF_NEWLINE).slice(1, -1);

/**
 * The UTF-8 bytes of `JSON.stringify({ ...head, receipt: receiptBody(logged) })`, byte for byte,
 * written into one buffer sized first: the checkpoint's JSON (in `checkpoint` and at the end of
 * `tlog_proof`) is escaped and encoded once per checkpoint rather than per answer, and the rest is
 * two strings, each written with one call: the fields before the checkpoint, and the tlog-proof's
 * lines before it (docs/decisions.md "Proof of existence"). `head` holds the answer's other fields,
 * none named `receipt`.
 *
 * Every string written without escaping needs none: the index in digits; the leaf's digest in hex,
 * its source one of LEAF_SOURCES and its account tag base64url, as shared/proof/leaf.ts encodes and
 * checks them; an ISO time; base64; the tlog-proof header. The tlog-proof text, laid out by
 * shared/proof/tlog-proof.ts (its lead lines with the leaf as `extra`, one line per hash, a blank
 * line, the note), has line breaks as its only characters JSON escapes, so its part is ASCII.
 */
export function jsonWithReceipt(head: object, logged: LoggedReceipt): Buffer {
  const { receipt, logKey } = logged;
  const { leaf } = receipt;
  const headJson = JSON.stringify(head);
  const open = headJson === '{}' ? '{' : `${headJson.slice(0, -1)},`;
  const { noteJson, tail } = checkpointParts(receipt.checkpoint, logKey);
  const hashes = receipt.inclusionProofBase64;
  const start =
    `${open}"receipt":{"id":"${receipt.id}","index":${receipt.index},"leaf":{"digest":"${leaf.digest}","length":${leaf.length},` +
    `"source":"${leaf.source}","account":"${leaf.account}","time":"${leafTime(leaf.timeMs)}"},` +
    `"leaf_base64":"${receipt.leafBase64}","tree_size":${receipt.treeSize},"root_hash":"${receipt.rootHashBase64}",` +
    `"inclusion_proof":[${hashes.length > 0 ? `"${hashes.join('","')}"` : ''}],"checkpoint":`;
  const proofLines =
    `,"tlog_proof":"${tlogProofLead(receipt.index, receipt.leafBase64, NEWLINE_JSON)}` +
    `${hashes.length > 0 ? `${NEWLINE_JSON}${hashes.join(NEWLINE_JSON)}` : ''}${NEWLINE_JSON}${NEWLINE_JSON}`;
  // `head` may hold any text; the rest of `start`, and `proofLines`, are ASCII.
  const startBytes = Buffer.byteLength(start);
  const size = startBytes + noteJson.length + proofLines.length + tail.length;
  const out = Buffer.allocUnsafe(size);
  let at = out.write(start, 0, startBytes, 'utf8');
  out.set(noteJson, at);
  at += noteJson.length;
  at += out.write(proofLines, at, 'latin1');
  out.set(tail, at);
  at += tail.length;
  // Every byte written: a wrong size would send garbage from the pool.
  if (at !== size) throw new Error(`receipt JSON: wrote ${at} of ${size} bytes`);
  return out;
}

/** A 200 answer of `head` and the receipt, as api/http/send-json.ts answers any JSON. */
export function sendWithReceipt(res: Response, head: object, logged: LoggedReceipt): void {
  sendJsonText(res, jsonWithReceipt(head, logged));
}

/**
 * A 200 answer of `head()` and the receipt once it is logged (TransparencyLog.logTo), or its error
 * to `next`: a request waiting for its batch holds this object and its leaf, no promise.
 */
export class ReceiptAnswer implements ReceiptWaiter {
  constructor(
    private readonly res: Response,
    private readonly next: NextFunction,
    private readonly head: () => object,
  ) {}

  receipt(receipt: Receipt, logKey: string): void {
    try {
      sendWithReceipt(this.res, this.head(), { receipt, logKey });
    } catch (err) {
      this.next(err);
    }
  }

  failed(err: unknown): void {
    this.next(err);
  }
}
