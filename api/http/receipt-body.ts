/** A transparency log receipt as JSON (docs/proving.md), the same on every route that answers one (v1 and v2). */
import type { Receipt } from '../../shared/proof/log.js';
import type { Body } from '../schemas/common.js';
import type * as proof from '../schemas/proof.js';

export function receiptBody({ receipt, logKey }: { receipt: Receipt; logKey: string }): Body<typeof proof.Receipt> {
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
    inclusion_proof: receipt.inclusionProof.map((h) => h.toString('base64')),
    checkpoint: receipt.checkpoint,
    tlog_proof: receipt.tlogProof,
    log_key: logKey,
  };
}
