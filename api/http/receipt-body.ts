/** A transparency log receipt as JSON (docs/proving.md), the same on every route that answers one (v1 and v2). */
import type { Response } from 'express';
import type { LoggedReceipt, Receipt } from '../../shared/proof/log.js';
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

/**
 * The UTF-8 bytes of `JSON.stringify({ ...head, receipt: receiptBody(logged) })`, byte for byte,
 * built from parts so the checkpoint's JSON (in `checkpoint` and at the end of `tlog_proof`) is
 * escaped and encoded once per checkpoint rather than per answer (docs/decisions.md "Proof of
 * existence"). `head` holds the answer's other fields, none named `receipt`.
 */
export function jsonWithReceipt(head: object, logged: LoggedReceipt): Buffer {
  const { receipt, logKey } = logged;
  const headJson = JSON.stringify(head);
  const open = headJson === '{}' ? '{' : `${headJson.slice(0, -1)},`;
  const { noteJson, tail } = checkpointParts(receipt.checkpoint, logKey);
  // The tlog-proof head is ASCII without quotes or backslashes (a header, base64, digits): its only
  // character JSON escapes is the newline. It is followed by a blank line and the note.
  const proofHead = receipt.tlogProofHead.replaceAll('\n', '\\n');
  return Buffer.concat([
    Buffer.from(`${open}"receipt":${leadingJson(receipt)},"checkpoint":`),
    noteJson,
    Buffer.from(`,"tlog_proof":"${proofHead}\\n\\n`),
    tail,
  ]);
}

/**
 * `JSON.stringify(leadingFields(receipt))` without its closing brace, from a template: every string
 * in it needs no escaping (the index in digits; the leaf's digest in hex, its source one of
 * LEAF_SOURCES and its account tag base64url, as shared/proof/leaf.ts encodes and checks them; an
 * ISO time; base64), so the text is the same.
 */
function leadingJson(receipt: Receipt): string {
  const { leaf } = receipt;
  let proof = '';
  for (const hash of receipt.inclusionProofBase64) proof += proof === '' ? `"${hash}"` : `,"${hash}"`;
  return (
    `{"id":"${receipt.id}","index":${receipt.index},"leaf":{"digest":"${leaf.digest}","length":${leaf.length},` +
    `"source":"${leaf.source}","account":"${leaf.account}","time":"${new Date(leaf.timeMs).toISOString()}"},` +
    `"leaf_base64":"${receipt.leafBase64}","tree_size":${receipt.treeSize},"root_hash":"${receipt.rootHashBase64}",` +
    `"inclusion_proof":[${proof}]`
  );
}

/** A 200 answer of `head` and the receipt, as api/http/send-json.ts answers any JSON. */
export function sendWithReceipt(res: Response, head: object, logged: LoggedReceipt): void {
  sendJsonText(res, jsonWithReceipt(head, logged));
}
