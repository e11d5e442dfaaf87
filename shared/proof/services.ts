/**
 * The proof-of-existence services of one node: the transparency log (its key from LOG_SIGNING_KEY or
 * DATA_DIR) and the RFC 3161 time-stamp authority (TSA_KEY/TSA_CERT or DATA_DIR). Keys are made at
 * first start in embedded mode only; a distributed node without them refuses to start these services.
 */
import type { Config } from '../config.js';
import type { AccountStore } from '../store/types.js';
import { TransparencyLog } from './log.js';
import { loadOrCreateLogKey } from './log-key.js';
import { loadOrCreateTsa } from './tsa-cert.js';
import { TimeStampAuthority } from './tsa.js';

export interface ProofServices {
  readonly log: TransparencyLog;
  readonly tsa: TimeStampAuthority;
  /** What was made now (first start): the caller prints the verifier key and the certificate's path. */
  readonly created: { logKey: boolean; tsa: boolean };
  close(): void;
}

export type ProofConfig = Pick<
  Config,
  'mode' | 'dataDir' | 'LOG_SIGNING_KEY' | 'LOG_ORIGIN' | 'LOG_CHECKPOINT_INTERVAL_MS' | 'TSA_KEY' | 'TSA_CERT' | 'TSA_POLICY_OID'
>;

export async function openProofServices(config: ProofConfig, store: AccountStore, onError: (err: unknown) => void): Promise<ProofServices> {
  const mayCreate = config.mode === 'embedded';
  const [logKey, tsa] = await Promise.all([
    loadOrCreateLogKey({ origin: config.LOG_ORIGIN, configured: config.LOG_SIGNING_KEY, dataDir: config.dataDir, mayCreate }),
    loadOrCreateTsa({
      keyPem: config.TSA_KEY,
      certPem: config.TSA_CERT,
      dataDir: config.dataDir,
      mayCreate,
      commonName: `${config.LOG_ORIGIN} TSA`,
    }),
  ]);
  const log = new TransparencyLog(store.transparencyLog, logKey.key);
  log.startCheckpoints(config.LOG_CHECKPOINT_INTERVAL_MS, onError);
  return {
    log,
    tsa: new TimeStampAuthority(tsa.identity, config.TSA_POLICY_OID),
    created: { logKey: logKey.created, tsa: tsa.created },
    close: () => log.stop(),
  };
}
