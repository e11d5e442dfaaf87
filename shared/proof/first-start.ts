/** What embedded mode prints once, when it has just made the log's and the TSA's keys (docs/proving.md). */
import path from 'node:path';
import { LOG_KEY_FILE } from './log-key.js';
import type { ProofServices } from './services.js';
import { TSA_CERT_FILE } from './tsa-cert.js';

export function proofFirstStartText(proof: ProofServices, baseUrl: string, dataDir: string): string {
  const lines: string[] = [];
  if (proof.created.logKey) {
    lines.push(
      `Transparency log key made (${path.join(dataDir, LOG_KEY_FILE)}); give verifiers this key:`,
      `Log key: ${proof.log.key.verifierKey}`,
    );
  }
  if (proof.created.tsa) {
    lines.push(
      `Time-stamp authority certificate made (${path.join(dataDir, TSA_CERT_FILE)}); export it with:`,
      `  curl -s ${baseUrl}/.well-known/sha224d-tsa.pem -o tsa.pem`,
    );
  }
  return `${lines.join('\n')}\n`;
}
