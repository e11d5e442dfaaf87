/** A transparency log receipt as JSON (docs/proving.md), the same on every route that answers one (v1 and v2). */
import type { Response } from 'express';
import type { Receipt } from '../../shared/proof/log.js';
import type { LoggedReceipt } from '../operations/proof.js';
import type { Body } from '../schemas/common.js';
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
    leaf_base64: receipt.leafBytes.toString('base64'),
    tree_size: receipt.treeSize,
    root_hash: receipt.rootHash.toString('base64'),
    inclusion_proof: [...receipt.inclusionProofBase64],
  };
}

/**
 * The JSON of the checkpoint note and of the log key, kept for the last one seen: every receipt of
 * a batch names the same checkpoint, and the note's signature line holds an em dash, which would
 * make the whole answer a two-byte string to scan, measure and encode again per request.
 */
let lastNote: { note: string; json: Buffer } | undefined;
let lastKey: { key: string; json: Buffer } | undefined;

function noteJson(note: string): Buffer {
  if (lastNote?.note !== note) lastNote = { note, json: Buffer.from(JSON.stringify(note)) };
  return lastNote.json;
}

function keyJson(key: string): Buffer {
  if (lastKey?.key !== key) lastKey = { key, json: Buffer.from(JSON.stringify(key)) };
  return lastKey.json;
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
  const note = noteJson(receipt.checkpoint);
  return Buffer.concat([
    Buffer.from(`${open}"receipt":${JSON.stringify(leadingFields(receipt)).slice(0, -1)},"checkpoint":`),
    note,
    // tlog_proof is the head, a blank line and the note: the note's JSON without its opening quote ends it.
    Buffer.from(`,"tlog_proof":${JSON.stringify(receipt.tlogProofHead).slice(0, -1)}\\n\\n`),
    note.subarray(1),
    Buffer.from(',"log_key":'),
    keyJson(logKey),
    Buffer.from('}}'),
  ]);
}

/**
 * A 200 answer of `head` and the receipt, with the headers api/http/send-json.ts sendJson writes
 * (the same Content-Type; Content-Length of the bytes).
 */
export function sendWithReceipt(res: Response, head: object, logged: LoggedReceipt): void {
  const body = jsonWithReceipt(head, logged);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
