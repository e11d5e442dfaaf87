/** A transparency log receipt as JSON (docs/proving.md), the same on every route that answers one (v1 and v2). */
import type { Response } from 'express';
import type { LoggedReceipt, Receipt } from '../../shared/proof/log.js';
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
      time: new Date(receipt.leaf.timeMs).toISOString(),
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

const QUOTE = 0x22;
const COMMA = 0x2c;
/** The tlog-proof's line break inside a JSON string: its only character JSON escapes. */
const NEWLINE_JSON = JSON.stringify(TLOG_PROOF_NEWLINE).slice(1, -1);
const NEWLINE_JSON_BYTES = Buffer.from(NEWLINE_JSON, 'latin1');

/**
 * The UTF-8 bytes of `JSON.stringify({ ...head, receipt: receiptBody(logged) })`, byte for byte,
 * written into one buffer sized first: the checkpoint's JSON (in `checkpoint` and at the end of
 * `tlog_proof`) is escaped and encoded once per checkpoint rather than per answer, and the proof
 * hashes, which the answer writes twice (the `inclusion_proof` array and the tlog-proof lines), are
 * copied in as they are, with no intermediate strings (docs/decisions.md "Proof of existence").
 * `head` holds the answer's other fields, none named `receipt`.
 *
 * Every string written without escaping needs none: the index in digits; the leaf's digest in hex,
 * its source one of LEAF_SOURCES and its account tag base64url, as shared/proof/leaf.ts encodes and
 * checks them; an ISO time; base64; the tlog-proof header. The tlog-proof text, laid out by
 * shared/proof/tlog-proof.ts (its lead lines with the leaf as `extra`, one line per hash, a blank
 * line, the note), has line breaks as its only characters JSON escapes.
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
    `"source":"${leaf.source}","account":"${leaf.account}","time":"${new Date(leaf.timeMs).toISOString()}"},` +
    `"leaf_base64":"${receipt.leafBase64}","tree_size":${receipt.treeSize},"root_hash":"${receipt.rootHashBase64}",` +
    `"inclusion_proof":[`;
  const middle = '],"checkpoint":';
  const proofStart = `,"tlog_proof":"${tlogProofLead(receipt.index, receipt.leafBase64, NEWLINE_JSON)}`;
  const blankLine = NEWLINE_JSON + NEWLINE_JSON;
  let hashBytes = 0;
  for (const hash of hashes) hashBytes += hash.length;
  const startBytes = Buffer.byteLength(start);
  const size =
    startBytes +
    (hashBytes + 3 * hashes.length - (hashes.length > 0 ? 1 : 0)) + // "h1","h2"
    middle.length +
    noteJson.length +
    proofStart.length +
    (hashBytes + NEWLINE_JSON_BYTES.length * hashes.length) + // \nh1\nh2
    blankLine.length +
    tail.length;
  const out = Buffer.allocUnsafe(size);
  let at = out.write(start, 0, startBytes, 'utf8');
  hashes.forEach((hash, i) => {
    if (i > 0) out[at++] = COMMA;
    out[at++] = QUOTE;
    at += out.write(hash, at, 'latin1');
    out[at++] = QUOTE;
  });
  at += out.write(middle, at, 'latin1');
  at += noteJson.copy(out, at);
  at += out.write(proofStart, at, 'latin1');
  for (const hash of hashes) {
    at += NEWLINE_JSON_BYTES.copy(out, at);
    at += out.write(hash, at, 'latin1');
  }
  at += out.write(blankLine, at, 'latin1');
  at += tail.copy(out, at);
  // Every byte written: a wrong size would send garbage from the pool.
  if (at !== size) throw new Error(`receipt JSON: wrote ${at} of ${size} bytes`);
  return out;
}

/** A 200 answer of `head` and the receipt, as api/http/send-json.ts answers any JSON. */
export function sendWithReceipt(res: Response, head: object, logged: LoggedReceipt): void {
  sendJsonText(res, jsonWithReceipt(head, logged));
}
