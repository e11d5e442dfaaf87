/** A transparency log receipt as JSON (docs/proving.md), the same on every route that answers one (v1 and v2). */
import type { Response } from 'express';
import type { LoggedReceipt } from '../operations/proof.js';
import type { Body } from '../schemas/common.js';
import type * as proof from '../schemas/proof.js';

export function receiptBody({ receipt, logKey }: LoggedReceipt): Body<typeof proof.Receipt> {
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
    checkpoint: receipt.checkpoint,
    tlog_proof: receipt.tlogProof,
    log_key: logKey,
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
  const { checkpoint, tlog_proof, log_key, ...first } = receiptBody(logged);
  const headJson = JSON.stringify(head);
  const open = headJson === '{}' ? '{' : `${headJson.slice(0, -1)},`;
  const prefixLength = tlog_proof.length - checkpoint.length - 2;
  // formatTlogProof ends the proof with a blank line and the note; anything else is written whole.
  if (prefixLength < 0 || !tlog_proof.endsWith(`\n\n${checkpoint}`)) {
    return Buffer.from(JSON.stringify({ ...head, receipt: receiptBody(logged) }));
  }
  const note = noteJson(checkpoint);
  const proofPrefix = JSON.stringify(tlog_proof.slice(0, prefixLength)).slice(0, -1);
  return Buffer.concat([
    Buffer.from(`${open}"receipt":${JSON.stringify(first).slice(0, -1)},"checkpoint":`),
    note,
    Buffer.from(`,"tlog_proof":${proofPrefix}\\n\\n`),
    note.subarray(1),
    Buffer.from(',"log_key":'),
    keyJson(log_key),
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
