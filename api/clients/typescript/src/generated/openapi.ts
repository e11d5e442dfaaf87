/**
 * Generated from the service's OpenAPI document (GET /openapi.json, api/openapi.ts) by api/clients/typescript/scripts/generate-types.ts.
 * Do not edit: run `npm run generate -w @sha224d/client`.
 */
export interface paths {
  '/v2/hash': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** SHA-224 of data */
    post: operations['hashV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Verify data against a SHA-224 digest (constant-time) */
    post: operations['verifyV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/hmac': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** HMAC-SHA-224 */
    post: operations['hmacV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/batch': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Hash up to 1000 items; ?async=true answers 202 with a job */
    post: operations['batchV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/file': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** SHA-224 of an uploaded file; ?async=true answers 202 with a job */
    post: operations['fileV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** SHA-224 of a raw application/octet-stream body (chunked); ?async=true answers 202 with a job */
    post: operations['streamV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/jobs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * State of a job; when completed, the body its synchronous call would have returned
     * @description Another account's job is reported as absent (404), so ids cannot be probed. Finished jobs are kept JOB_RETENTION_SECONDS (24 h).
     */
    get: operations['getJobV2'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/uploads': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a resumable upload (tus 1.0 creation; with a body: creation-with-upload)
     * @description Answers 201 with `Location: /v2/uploads/{id}`. Send Upload-Length, or Upload-Defer-Length: 1 and Upload-Length with a later PATCH; at most the plan's /v2/stream limit (Tus-Max-Size). Counts once against the daily quota.
     */
    post: operations['createUploadV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/uploads/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Terminate an upload: its bytes are deleted at once (tus 1.0 termination) */
    delete: operations['deleteUploadV2'];
    options?: never;
    /** An upload's offset (tus 1.0 core HEAD) */
    head: operations['headUploadV2'];
    /**
     * Append bytes at Upload-Offset (tus 1.0 core PATCH, checksum extension)
     * @description The offset advances only by bytes stored and hashed. Another PATCH of the same upload under way: 423. A wrong Upload-Offset: 409. Upload-Checksum mismatch: 460, the bytes discarded. The last byte submits a `file` job carrying the digest (Upload-Job-Id).
     */
    patch: operations['patchUploadV2'];
    trace?: never;
  };
  '/v2/log': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Log a SHA-224 digest computed elsewhere in the transparency log; answers its receipt
     * @description The data never reaches the service. The receipt verifies offline (docs/proving.md).
     */
    post: operations['logDigestV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/receipts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A logged digest's receipt, against the latest checkpoint
     * @description Another account's receipt is reported as absent (404).
     */
    get: operations['getReceiptV2'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/log/consistency': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** RFC 9162 consistency proof between two tree sizes of the log, with their checkpoints */
    get: operations['logConsistencyV2'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/timestamp': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * RFC 3161 time-stamp: a DER TimeStampReq (SHA-224 or SHA-256 imprint) in, a TimeStampResp out
     * @description A request the authority refuses (unknown algorithm, wrong imprint length, another policy) is answered 200 with a rejection TimeStampResp, as RFC 3161 §3.4 has it.
     */
    post: operations['timestampV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/bulk': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a bulk job: NDJSON items, a list of URLs or an S3 bucket; answers 202
     * @description Items: an application/x-ndjson body, one `{"id","data","encoding"}` per line. URLs and S3: a JSON body. Limits per plan: docs/api.md "Bulk jobs".
     */
    post: operations['createBulkV2'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/bulk/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A bulk job's progress (items done, failed, rate, ETA) and, once finished, its summary */
    get: operations['getBulkV2'];
    put?: never;
    post?: never;
    /** Cancel a bulk job: chunks not yet run are skipped; a finished job is left as it is */
    delete: operations['cancelBulkV2'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/bulk/{id}/results': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A finished bulk job's results: NDJSON in input order, {id, hash, bytes} or {id, error} per item (gzip if accepted)
     * @description A single `Range: bytes=…` is answered 206 from the identity (uncompressed) bytes, never gzip, whatever Accept-Encoding says; several ranges, another unit or an `If-Range` get the whole 200. docs/api.md "Bulk jobs".
     */
    get: operations['getBulkResultsV2'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/hash': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** SHA-224 of data (Set A) */
    post: operations['hashV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Verify data against a SHA-224 digest (Set A body; a Set B body with text answers in Set B shape) */
    post: operations['verifyV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/file/hash': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** SHA-224 of an uploaded file (Set A) */
    post: operations['fileHashV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/hmac': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** HMAC-SHA-224 (Set A) */
    post: operations['hmacV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Account usage and quota (Set A) */
    get: operations['getUsageV1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/hash/text': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** SHA-224 of text (Set B) */
    post: operations['hashTextV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/hash/file': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** SHA-224 of an uploaded file (Set B) */
    post: operations['hashFileV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/hash/url': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Fetch a URL and hash its body (Set B)
     * @description Client keys may not hash URLs (403). Only public addresses are fetched (docs/ssrf.md).
     */
    post: operations['hashUrlV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/verify/text': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Verify text against a SHA-224 digest (Set B) */
    post: operations['verifyTextV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/verify/file': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Verify an uploaded file against a SHA-224 digest (Set B) */
    post: operations['verifyFileV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/batch/hash': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Hash up to 1000 texts (Set B) */
    post: operations['batchHashV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/batch/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Verify up to 1000 texts (Set B) */
    post: operations['batchVerifyV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/compare': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Compare two hex hashes in constant time (Set B) */
    post: operations['compareV1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Service status, rate limit and account (Set B) */
    get: operations['getStatusV1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/authorize': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Authorization code grant with PKCE S256
     * @description The resource owner authenticates with a production API key of the Enterprise account that registered the client (X-API-Key), which is its consent. The redirect carries `code`, `state` and `iss` (RFC 9207), or `error`.
     */
    get: operations['authorizeOAuth'];
    put?: never;
    /**
     * Authorization code grant with PKCE S256 (parameters in a form body)
     * @description The resource owner authenticates with a production API key of the Enterprise account that registered the client (X-API-Key), which is its consent. The redirect carries `code`, `state` and `iss` (RFC 9207), or `error`.
     */
    post: operations['authorizeOAuthForm'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Exchange an authorization code, or refresh a token (the refresh token rotates) */
    post: operations['tokenOAuth'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke a token and its whole grant (RFC 7009)
     * @description An unknown token, or another client's, is answered 200 like a revoked one, so the endpoint reveals nothing.
     */
    post: operations['revokeOAuth'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/introspect': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Describe one of the client's own tokens (RFC 7662)
     * @description Confidential clients only. Any other token is `{"active": false}`.
     */
    post: operations['introspectOAuth'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/oauth-authorization-server': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Authorization server metadata (RFC 8414) */
    get: operations['getAuthorizationServerMetadata'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/openid-configuration': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The same authorization server metadata at the OpenID discovery path (RFC 8414 §5); no OpenID Connect is offered */
    get: operations['getOpenIdConfiguration'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness: answers without touching any dependency */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness: the store, the queue and the blob store each answered a ping within 2 s */
    get: operations['getReadiness'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This document (public, Access-Control-Allow-Origin: *, revalidated by ETag) */
    get: operations['getOpenApiDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/asyncapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The AsyncAPI 3 document of the realtime API (public, Access-Control-Allow-Origin: *, revalidated by ETag) */
    get: operations['getAsyncApiDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Prometheus metrics (docs/operating.md): only when METRICS_TOKEN is set, to Authorization: Bearer <METRICS_TOKEN> */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sdk/sha224.min.js': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The client library as a classic script (global sha224), cached for an hour */
    get: operations['getSdkScript'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sdk/sha224.mjs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The client library as an ES module, cached for an hour */
    get: operations['getSdkModule'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sdk/manifest.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The content-addressed URLs of the library and their SRI integrity */
    get: operations['getSdkManifest'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sdk/{asset}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A content-addressed copy of the library, as named by /sdk/manifest.json: immutable, cached for a year */
    get: operations['getSdkAsset'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/log/checkpoint': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The log's latest checkpoint: a C2SP signed note (origin, tree size, root hash), cached 5 s */
    get: operations['getLogCheckpoint'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/log/tile/{tile}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A C2SP tlog-tiles hash tile (<L>/<N>[.p/<W>]) or entry bundle (entries/<N>[.p/<W>]); full tiles are immutable */
    get: operations['getLogTile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/sha224d-log': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The log's origin and public key, for verifying checkpoints and receipts offline */
    get: operations['getLogKey'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/sha224d-tsa.pem': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The time-stamping authority's certificate (PEM), for openssl ts -verify -CAfile */
    get: operations['getTsaCertificate'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    ErrorResponse: {
      /** @enum {boolean} */
      success: false;
      error: {
        code: string;
        message: string;
        details: string;
        /** @description Seconds to wait (RATE_LIMIT_EXCEEDED) */
        retry_after?: number;
        /** @description The job that goes on (JOB_TIMEOUT) */
        job_id?: string;
      };
    };
    V1ErrorResponse: {
      error: {
        code: string;
        message: string;
        details: {
          [key: string]: string | number;
        };
      };
    };
    HashResponse: {
      /** @enum {boolean} */
      success: true;
      hash: string;
      /** @enum {string} */
      algorithm: 'SHA-224';
      encoding: string;
      /**
       * Format: date-time
       * @example 2026-11-21T12:00:00.000Z
       */
      timestamp: string;
      /** @description Server-side processing time in milliseconds */
      processing_time_ms: number;
      receipt?: components['schemas']['Receipt'];
    };
    /** @description With `"log": true`: the transparency log receipt (docs/proving.md) */
    Receipt: {
      /** @description The receipt id, for GET /v2/receipts/{id} (the leaf index) */
      id: string;
      index: number;
      leaf: components['schemas']['LogLeaf'];
      /**
       * Format: byte
       * @description The exact leaf record the log hashed (SHA-256(0x00 ‖ leaf))
       */
      leaf_base64: string;
      tree_size: number;
      /** Format: byte */
      root_hash: string;
      inclusion_proof: string[];
      /** @description The signed C2SP checkpoint (signed note) the proof leads to */
      checkpoint: string;
      /** @description The same as one C2SP tlog-proof@v1 text; its `extra` line is the leaf */
      tlog_proof: string;
      /** @description The log verifier key (<origin>+<key id>+<base64 key>) */
      log_key: string;
    };
    LogLeaf: {
      /** @description SHA-224 of the data, lowercase hex */
      digest: string;
      /** @description Bytes hashed (0 when only a digest was logged) */
      length: number;
      /** @enum {string} */
      source: 'data' | 'file' | 'stream' | 'url' | 'digest';
      /** @description An opaque tag of the account (HMAC of its id under the log's key), never the id */
      account: string;
      /**
       * Format: date-time
       * @example 2026-11-21T12:00:00.000Z
       */
      time: string;
    };
    HashRequest: {
      data: string;
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
      /**
       * @description Digest format; binary is returned base64-encoded. Defaults to "hex" when omitted.
       * @enum {string}
       */
      output?: 'hex' | 'base64' | 'binary';
      /** @description Also log the digest in the transparency log; the answer carries a receipt. Defaults to false when omitted. */
      log?: boolean;
    };
    VerifyResponse: {
      /** @enum {boolean} */
      success: true;
      valid: boolean;
      message: string;
      expected_hash: string;
      provided_hash: string;
    };
    VerifyRequest: {
      data: string;
      hash: string;
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
    };
    HmacResponse: {
      /** @enum {boolean} */
      success: true;
      hmac: string;
      /** @enum {string} */
      algorithm: 'HMAC-SHA-224';
      encoding: string;
      /**
       * Format: date-time
       * @example 2026-11-21T12:00:00.000Z
       */
      timestamp: string;
      /** @description Server-side processing time in milliseconds */
      processing_time_ms: number;
    };
    HmacRequest: {
      data: string;
      key: string;
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      key_encoding?: 'utf8' | 'hex' | 'base64';
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
      /**
       * @description Digest format; binary is returned base64-encoded. Defaults to "hex" when omitted.
       * @enum {string}
       */
      output?: 'hex' | 'base64';
    };
    BatchResponse: {
      /** @enum {boolean} */
      success: true;
      results: {
        id: string;
        hash: string;
      }[];
      count: number;
      /** @enum {string} */
      algorithm: 'SHA-224';
      encoding: string;
      /**
       * Format: date-time
       * @example 2026-11-21T12:00:00.000Z
       */
      timestamp: string;
      /** @description Server-side processing time in milliseconds */
      processing_time_ms: number;
    };
    AcceptedResponse: {
      /** @enum {boolean} */
      success: true;
      /** @description The job id; GET /v2/jobs/{id} reports its state */
      job_id: string;
      /** @enum {string} */
      status: 'queued' | 'active' | 'completed' | 'failed';
      status_url: string;
    };
    BatchRequest: {
      items: {
        id: string;
        data: string;
      }[];
      /** @description Defaults to true when omitted. */
      parallel?: boolean;
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
      /**
       * @description Digest format; binary is returned base64-encoded. Defaults to "hex" when omitted.
       * @enum {string}
       */
      output?: 'hex' | 'base64' | 'binary';
    };
    FileResponse: {
      /** @enum {boolean} */
      success: true;
      hash: string;
      /** @enum {string} */
      algorithm: 'SHA-224';
      encoding: string;
      filename: string;
      size: number;
      chunk_size: number;
      /**
       * @description Present when X-Expected-SHA224 (or tus metadata `sha224`) was sent: the bytes have that digest
       * @enum {boolean}
       */
      verified?: true;
      /**
       * Format: date-time
       * @example 2026-11-21T12:00:00.000Z
       */
      timestamp: string;
      /** @description Server-side processing time in milliseconds */
      processing_time_ms: number;
      receipt?: components['schemas']['Receipt'];
    };
    StreamResponse: {
      /** @enum {boolean} */
      success: true;
      hash: string;
      /** @enum {string} */
      algorithm: 'SHA-224';
      encoding: string;
      size: number;
      chunk_size: number;
      /**
       * @description Present when X-Expected-SHA224 (or tus metadata `sha224`) was sent: the bytes have that digest
       * @enum {boolean}
       */
      verified?: true;
      /**
       * Format: date-time
       * @example 2026-11-21T12:00:00.000Z
       */
      timestamp: string;
      /** @description Server-side processing time in milliseconds */
      processing_time_ms: number;
      receipt?: components['schemas']['Receipt'];
    };
    /** @description A job's state; when completed, the body its synchronous call would have returned plus `job_id` and `status`. */
    JobStatus:
      | components['schemas']['JobPending']
      | components['schemas']['BatchJobCompleted']
      | components['schemas']['FileJobCompleted']
      | components['schemas']['StreamJobCompleted']
      | components['schemas']['DigestJobCompleted']
      | components['schemas']['JobFailed'];
    /** @description A job still waiting for a worker (`queued`) or being worked on (`active`). */
    JobPending: {
      /** @enum {boolean} */
      success: true;
      job_id: string;
      /** @enum {string} */
      status: 'queued' | 'active';
    };
    BatchJobCompleted: components['schemas']['BatchResponse'] & {
      job_id: string;
      /** @enum {string} */
      status: 'completed';
    };
    FileJobCompleted: components['schemas']['FileResponse'] & {
      job_id: string;
      /** @enum {string} */
      status: 'completed';
    };
    StreamJobCompleted: components['schemas']['StreamResponse'] & {
      job_id: string;
      /** @enum {string} */
      status: 'completed';
    };
    /** @description A finished hash, HMAC, verify or URL job, fetched after its synchronous call answered 504 JOB_TIMEOUT. */
    DigestJobCompleted: {
      /** @enum {boolean} */
      success: true;
      /** @description Lowercase hex */
      digest: string;
      /**
       * Format: date-time
       * @example 2026-11-21T12:00:00.000Z
       */
      timestamp: string;
      receipt?: components['schemas']['Receipt'];
      job_id: string;
      /** @enum {string} */
      status: 'completed';
    };
    /** @description A failed job: the error the synchronous call would have answered. */
    JobFailed: {
      /** @enum {boolean} */
      success: false;
      job_id: string;
      /** @enum {string} */
      status: 'failed';
      error: {
        code: string;
        message: string;
        details: string;
      };
    };
    ReceiptResponse: {
      /** @enum {boolean} */
      success: true;
      receipt: components['schemas']['Receipt'];
    };
    LogDigestRequest: {
      digest: string;
      /** @description Bytes of the data, if known */
      length?: number;
    };
    ConsistencyResponse: {
      /** @enum {boolean} */
      success: true;
      from: number;
      to: number;
      proof: string[];
      from_checkpoint: string;
      to_checkpoint: string;
    };
    BulkStatus: {
      /** @enum {boolean} */
      success: true;
      id: string;
      /** @enum {string} */
      source: 'items' | 'urls' | 's3';
      /** @enum {string} */
      status: 'receiving' | 'running' | 'completed' | 'cancelled';
      items: {
        total: number;
        /** @description Items hashed */
        done: number;
        /** @description Items that are an error line in the results */
        failed: number;
        pending: number;
      };
      chunks: {
        total: number;
        done: number;
      };
      /** @description Bytes hashed so far */
      bytes: number;
      /** @description Items finished per second since the chunks were queued */
      rate_items_per_second: number;
      /** @description Seconds left at the current rate; null before a rate is known or once finished */
      eta_seconds: number | null;
      /**
       * Format: date-time
       * @example 2026-11-21T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-21T12:00:00.000Z
       */
      finished_at?: string;
      status_url: string;
      results_url: string;
      /** @description Once completed or cancelled */
      summary?: {
        items: number;
        failed: number;
        bytes: number;
        duration_ms: number;
      };
    };
    BulkUrlsRequest: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      source: 'urls';
      urls: string[];
      /** @description Seconds per URL fetch (default 10, at most 60) */
      timeout?: number;
    };
    BulkS3Request: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      source: 's3';
      bucket: string;
      /** @description Defaults to "" when omitted. */
      prefix?: string;
      /** @description An S3-compatible endpoint (https://…); default AWS S3 in `region`. Checked like a URL job. */
      endpoint?: string;
      /** @description Defaults to "us-east-1" when omitted. */
      region?: string;
      /** @description Defaults to true when omitted. */
      force_path_style?: boolean;
      /** @description Read-only credentials: sealed at once, never stored, logged or returned */
      credentials: {
        access_key_id: string;
        secret_access_key: string;
        session_token?: string;
      };
    };
    V1HashResponse: {
      /** @enum {boolean} */
      success: true;
      hash: string;
      /** @enum {string} */
      algorithm: 'sha224';
      /** @enum {string} */
      encoding: 'hex' | 'base64';
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1HashRequest: {
      data: string;
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
      /**
       * @description Digest format; binary is returned base64-encoded. Defaults to "hex" when omitted.
       * @enum {string}
       */
      outputFormat?: 'hex' | 'base64' | 'binary';
    };
    V1VerifyResponse: {
      /** @enum {boolean} */
      success: true;
      verified: boolean;
      /** @enum {string} */
      algorithm: 'sha224';
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1TextVerifyResponse: {
      valid: boolean;
      expected: string;
      computed: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1VerifyRequest: {
      data: string;
      hash: string;
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
    };
    V1TextVerifyRequest: {
      hash: string;
      text: string;
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
    };
    V1FileHashResponse: {
      /** @enum {boolean} */
      success: true;
      hash: string;
      /** @enum {string} */
      algorithm: 'sha224';
      /** @enum {string} */
      encoding: 'hex' | 'base64';
      fileName: string;
      fileSize: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1HmacResponse: {
      /** @enum {boolean} */
      success: true;
      hmac: string;
      /** @enum {string} */
      algorithm: 'sha224';
      /** @enum {string} */
      encoding: 'hex' | 'base64';
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1HmacRequest: {
      data: string;
      key: string;
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      keyEncoding?: 'utf8' | 'hex' | 'base64';
      /**
       * @description Digest format; binary is returned base64-encoded. Defaults to "hex" when omitted.
       * @enum {string}
       */
      outputFormat?: 'hex' | 'base64';
    };
    V1UsageResponse: {
      /** @enum {boolean} */
      success: true;
      account: {
        tier: string;
        quota: {
          /** @description -1 when the plan has no daily quota */
          daily: number;
          used: number;
          /** @description -1 when the plan has no daily quota */
          remaining: number;
          /**
           * Format: date-time
           * @description ISO 8601 UTC, second precision
           * @example 2026-11-21T12:00:00Z
           */
          resetTime: string;
        };
        rateLimit: {
          /** @description -1 when unlimited */
          requestsPerSecond: number;
          maxFileSize: number;
        };
      };
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1TextHashResponse: {
      hash: string;
      input_length: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1TextHashRequest: {
      text: string;
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
    };
    V1HashFileResponse: {
      hash: string;
      filename: string;
      filesize: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1UrlHashResponse: {
      hash: string;
      url: string;
      content_length: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
      receipt?: components['schemas']['Receipt'];
    };
    V1UrlHashRequest: {
      /** Format: uri */
      url: string;
      /** @description Seconds, greater than 0 and at most 60; default 10 */
      timeout?: number;
      /** @description Also log the digest in the transparency log; the answer carries a receipt. Defaults to false when omitted. */
      log?: boolean;
    };
    V1FileVerifyResponse: {
      valid: boolean;
      expected: string;
      computed: string;
      filename: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1BatchHashResponse: {
      results: {
        id: string;
        hash: string;
        input_length: number;
      }[];
      count: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1BatchHashRequest: {
      items: {
        /** @description Defaults to the item's index */
        id?: string;
        text: string;
      }[];
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
    };
    V1BatchVerifyResponse: {
      results: {
        id: string;
        valid: boolean;
        expected: string;
        computed: string;
      }[];
      count: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1BatchVerifyRequest: {
      items: {
        /** @description Defaults to the item's index */
        id?: string;
        hash: string;
        text: string;
      }[];
      /**
       * @description Encoding of the input string. Defaults to "utf8" when omitted.
       * @enum {string}
       */
      encoding?: 'utf8' | 'hex' | 'base64';
    };
    V1CompareResponse: {
      match: boolean;
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    V1CompareRequest: {
      hash1: string;
      hash2: string;
    };
    V1StatusResponse: {
      /** @enum {string} */
      status: 'operational' | 'degraded';
      version: string;
      /** @description The v1 Set B per-minute window; -1 when unlimited */
      rate_limit: {
        limit: number;
        remaining: number;
        /**
         * Format: date-time
         * @description ISO 8601 UTC, second precision
         * @example 2026-11-21T12:00:00Z
         */
        reset: string;
      };
      account: {
        plan: string;
        requests_today: number;
        /** @description -1 when the plan has no daily quota */
        requests_quota: number;
      };
      /**
       * Format: date-time
       * @description ISO 8601 UTC, second precision
       * @example 2026-11-21T12:00:00Z
       */
      timestamp: string;
    };
    OAuthError: {
      /** @description RFC 6749 §5.2 / §4.1.2.1 error code, e.g. invalid_request, invalid_client, invalid_grant, access_denied */
      error: string;
      error_description: string;
    };
    OAuthTokenResponse: {
      access_token: string;
      /** @enum {string} */
      token_type: 'Bearer';
      /** @description Seconds; 3600 */
      expires_in: number;
      /** @description A new one on every refresh; the old one stops working */
      refresh_token: string;
      /** @description Space-separated granted scopes */
      scope: string;
    };
    OAuthTokenForm: {
      /** @enum {string} */
      grant_type: 'authorization_code' | 'refresh_token';
      /** @description authorization_code */
      code?: string;
      /** @description authorization_code, when the authorization request had one */
      redirect_uri?: string;
      /** @description authorization_code (PKCE) */
      code_verifier?: string;
      /** @description refresh_token */
      refresh_token?: string;
      /** @description refresh_token: a narrower scope */
      scope?: string;
      /** @description Public clients, and client_secret_post */
      client_id?: string;
      /** @description client_secret_post */
      client_secret?: string;
    };
    OAuthTokenLookupForm: {
      token: string;
      /**
       * @description Ignored: the token says what it is
       * @enum {string}
       */
      token_type_hint?: 'access_token' | 'refresh_token';
      client_id?: string;
      client_secret?: string;
    };
    OAuthIntrospectionResponse:
      | {
          /** @enum {boolean} */
          active: false;
        }
      | {
          /** @enum {boolean} */
          active: true;
          scope: string;
          client_id: string;
          /**
           * @description Access tokens only
           * @enum {string}
           */
          token_type?: 'Bearer';
          exp: number;
          iat: number;
          /** @description The account that authorized the client */
          sub: string;
          iss: string;
        };
    AuthorizationServerMetadata: {
      issuer: string;
      authorization_endpoint: string;
      token_endpoint: string;
      revocation_endpoint: string;
      introspection_endpoint: string;
      scopes_supported: ('hash:create' | 'hash:verify' | 'usage:read' | 'jobs:read')[];
      response_types_supported: 'code'[];
      response_modes_supported: 'query'[];
      grant_types_supported: ('authorization_code' | 'refresh_token')[];
      code_challenge_methods_supported: 'S256'[];
      token_endpoint_auth_methods_supported: ('client_secret_basic' | 'client_secret_post' | 'none')[];
      revocation_endpoint_auth_methods_supported: string[];
      introspection_endpoint_auth_methods_supported: string[];
      /** @enum {boolean} */
      authorization_response_iss_parameter_supported: true;
    };
    Health: {
      /** @enum {string} */
      status: 'ok';
    };
    Readiness: {
      /** @enum {string} */
      status: 'ready' | 'not_ready';
      checks: {
        /** @enum {string} */
        store: 'ok' | 'failed';
        /** @enum {string} */
        queue: 'ok' | 'failed';
        /** @enum {string} */
        blobs: 'ok' | 'failed';
      };
    };
    SdkManifest: {
      name: string;
      version: string;
      /** @description By served name: `sha224.min.js` and `sha224.mjs` */
      files: {
        [key: string]: {
          /** @description The content-addressed URL, cached for a year */
          url: string;
          /** @description Subresource Integrity (sha384-…) */
          integrity: string;
          bytes: number;
          gzip: number;
          br: number;
        };
      };
    };
    LogKey: {
      /** @description The log origin, the first line of every checkpoint */
      origin: string;
      /** @description C2SP note verifier key: `<name>+<hex key id>+<base64(0x01 ‖ Ed25519 public key)>` */
      verifier_key: string;
      /** @description The Ed25519 public key, base64 */
      public_key: string;
      /** @enum {string} */
      algorithm: 'Ed25519';
      checkpoint: string;
      tiles: string;
      tsa_certificate: string;
    };
  };
  responses: {
    /** @description `INVALID_INPUT`: a parameter is missing or invalid, the body is malformed, or the path is badly percent-encoded. */
    V2_INVALID_INPUT: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `UNAUTHORIZED`: no credential, or an unknown, revoked or malformed one (no X-RateLimit-* headers). `EXPIRED_KEY`: the credential has expired. */
    V2_UNAUTHORIZED_EXPIRED_KEY: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `FORBIDDEN`: the credential lacks this operation's permission or scope, or a client key is used from an Origin it does not allow. `CREDENTIAL_EXPOSED`: a credential was sent over plain HTTP to a deployment with TLS: revoke it. `IP_NOT_ALLOWED`: the request comes from an address outside the key's or its account's IP allow-list. */
    V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `METHOD_NOT_ALLOWED`: answered, with `Allow`, to any other method on this path. */
    V2_METHOD_NOT_ALLOWED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        Allow: components['headers']['Allow'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `REQUEST_TIMEOUT`: the headers or the body did not arrive in time (docs/limits.md "Connections and timeouts"). */
    V2_REQUEST_TIMEOUT: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `PAYLOAD_TOO_LARGE`: the JSON body exceeds MAX_JSON_BYTES. */
    V2_PAYLOAD_TOO_LARGE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `UNSUPPORTED_MEDIA_TYPE`: a Content-Encoding other than identity, or a content type or charset this operation does not take. */
    V2_UNSUPPORTED_MEDIA_TYPE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `RATE_LIMIT_EXCEEDED`: the rate window or the daily quota is used up; see Retry-After. */
    V2_RATE_LIMIT_EXCEEDED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        'Retry-After': components['headers']['Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `HEADERS_TOO_LARGE`: the request line and headers are too large. */
    V2_HEADERS_TOO_LARGE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `INTERNAL_ERROR`: an unexpected fault (no details are given). */
    V2_INTERNAL_ERROR: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `SERVICE_UNAVAILABLE`: a dependency (database, Redis, object store) cannot be reached right now, or the job queue is full (QUEUE_MAX_WAITING backpressure). */
    V2_SERVICE_UNAVAILABLE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        'Retry-After': components['headers']['Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `JOB_TIMEOUT`: the job did not finish within SYNC_TIMEOUT; it goes on, and `job_id` names it for GET /v2/jobs/{id}. */
    V2_JOB_TIMEOUT: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `CONFLICT`: the same Idempotency-Key is being used by a concurrent request; retry. */
    V2_CONFLICT: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `IDEMPOTENCY_KEY_REUSED`: the Idempotency-Key was first used with a different request. */
    V2_IDEMPOTENCY_KEY_REUSED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `FILE_TOO_LARGE`: the file exceeds the plan's size limit. */
    V2_FILE_TOO_LARGE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `IDEMPOTENCY_KEY_REUSED`: the Idempotency-Key was first used with a different request. `HASH_MISMATCH`: the bytes received do not have the expected SHA-224 (X-Expected-SHA224, or tus metadata `sha224`); `expected` and `computed` name both. */
    V2_IDEMPOTENCY_KEY_REUSED_HASH_MISMATCH: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `NOT_FOUND`: no such resource for this account. */
    V2_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `UPLOAD_OFFSET_MISMATCH`: Upload-Offset is not the offset the upload holds: HEAD it and resume from there. */
    V2_UPLOAD_OFFSET_MISMATCH: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `UPLOAD_EXPIRED`: the upload passed its Upload-Expires and its bytes are deleted. */
    V2_UPLOAD_EXPIRED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `TUS_VERSION_UNSUPPORTED`: Tus-Resumable is missing or not 1.0.0 (the answer carries Tus-Version). */
    V2_TUS_VERSION_UNSUPPORTED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `UPLOAD_LOCKED`: another PATCH or DELETE of this upload is under way; retry after it. */
    V2_UPLOAD_LOCKED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `CHECKSUM_MISMATCH`: Upload-Checksum does not match the PATCH's bytes; they were discarded and the offset is unchanged. */
    V2_CHECKSUM_MISMATCH: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `INVALID_INPUT`: a parameter is missing or invalid, the body is malformed, or the path is badly percent-encoded. `URL_NOT_ALLOWED`: the URL is malformed or points at an address the service does not fetch (docs/ssrf.md). */
    V2_INVALID_INPUT_URL_NOT_ALLOWED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `RANGE_NOT_SATISFIABLE`: the Range starts at or past the end of the identity representation; `Content-Range: bytes *\/<length>` gives its length. */
    V2_RANGE_NOT_SATISFIABLE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
        'Content-Range': components['headers']['Content-Range'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `INVALID_INPUT`: a parameter is missing or invalid, the body is malformed, or the path is badly percent-encoded. */
    V1_INVALID_INPUT: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `UNAUTHORIZED`: no credential, or an unknown, revoked or malformed one (no X-RateLimit-* headers). `EXPIRED_KEY`: the credential has expired. */
    V1_UNAUTHORIZED_EXPIRED_KEY: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `FORBIDDEN`: the credential lacks this operation's permission or scope, or a client key is used from an Origin it does not allow. `CREDENTIAL_EXPOSED`: a credential was sent over plain HTTP to a deployment with TLS: revoke it. `IP_NOT_ALLOWED`: the request comes from an address outside the key's or its account's IP allow-list. */
    V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `METHOD_NOT_ALLOWED`: answered, with `Allow`, to any other method on this path. */
    V1_METHOD_NOT_ALLOWED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        Allow: components['headers']['Allow'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `REQUEST_TIMEOUT`: the headers or the body did not arrive in time (docs/limits.md "Connections and timeouts"). */
    V1_REQUEST_TIMEOUT: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `PAYLOAD_TOO_LARGE`: the JSON body exceeds MAX_JSON_BYTES. */
    V1_PAYLOAD_TOO_LARGE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `UNSUPPORTED_MEDIA_TYPE`: a Content-Encoding other than identity, or a content type or charset this operation does not take. */
    V1_UNSUPPORTED_MEDIA_TYPE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `RATE_LIMIT_EXCEEDED`: the rate window or the daily quota is used up; see Retry-After. */
    V1_RATE_LIMIT_EXCEEDED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'Retry-After': components['headers']['Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `HEADERS_TOO_LARGE`: the request line and headers are too large. */
    V1_HEADERS_TOO_LARGE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `INTERNAL_ERROR`: an unexpected fault (no details are given). */
    V1_INTERNAL_ERROR: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `SERVICE_UNAVAILABLE`: a dependency (database, Redis, object store) cannot be reached right now, or the job queue is full (QUEUE_MAX_WAITING backpressure). */
    V1_SERVICE_UNAVAILABLE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        'Retry-After': components['headers']['Retry-After'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `JOB_TIMEOUT`: the job did not finish within SYNC_TIMEOUT; it goes on, and `job_id` names it for GET /v2/jobs/{id}. */
    V1_JOB_TIMEOUT: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `FILE_TOO_LARGE`: the file exceeds the plan's size limit. */
    V1_FILE_TOO_LARGE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `INVALID_INPUT`: a parameter is missing or invalid, the body is malformed, or the path is badly percent-encoded. `URL_NOT_ALLOWED`: the URL is malformed or points at an address the service does not fetch (docs/ssrf.md). */
    V1_INVALID_INPUT_URL_NOT_ALLOWED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `PAYLOAD_TOO_LARGE`: the JSON body exceeds MAX_JSON_BYTES. `FILE_TOO_LARGE`: the file exceeds the plan's size limit. */
    V1_PAYLOAD_TOO_LARGE_FILE_TOO_LARGE: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `URL_FETCH_FAILED`: fetching the URL failed (an upstream error status, a refused connection or a timeout). */
    V1_URL_FETCH_FAILED: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V1ErrorResponse'];
      };
    };
    /** @description `METHOD_NOT_ALLOWED`: answered, with `Allow`, to any other method on this path. */
    V2_METHOD_NOT_ALLOWED_PUBLIC: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        Allow: components['headers']['Allow'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `UNAUTHORIZED`: no credential, or an unknown, revoked or malformed one (no X-RateLimit-* headers). */
    V2_UNAUTHORIZED_PUBLIC: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    /** @description `NOT_FOUND`: no such resource for this account. */
    V2_NOT_FOUND_PUBLIC: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The id of this request in the service log: the client-supplied `X-Request-Id` when it is 1-64 of `A-Za-z0-9._:-`, else a new UUID. */
    'X-Request-Id': string;
    /** @description Requests allowed in the binding window (docs/limits.md); -1 when unlimited. On every response to an identified caller. */
    'X-RateLimit-Limit': number;
    /** @description Requests left in that window; -1 when unlimited. */
    'X-RateLimit-Remaining': number;
    /** @description When that window resets, in Unix seconds. */
    'X-RateLimit-Reset': number;
    /** @description v2: seconds until a refused request may be sent again; 0 while requests are allowed. */
    'X-RateLimit-Retry-After': number;
    /** @description Seconds to wait before sending the request again (RFC 9110 §10.2.3): on every 429 and 503; the window's reset, or 1 when the end of an outage is not known. */
    'Retry-After': number;
    /** @description `true` when the `Idempotency-Key` was seen before with the same request: the answer names the first job. */
    'Idempotent-Replayed': 'true';
    /** @description The job's status URL, `/v2/jobs/{id}`. */
    Location: string;
    /** @description The methods this path accepts. */
    Allow: string;
    /** @description RFC 9110 §14.4: `bytes <first>-<last>/<length>` on a 206; `bytes *\/<length>` on a 416. */
    'Content-Range': string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  hashV2: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['HashRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HashResponse'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      413: components['responses']['V2_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
      504: components['responses']['V2_JOB_TIMEOUT'];
    };
  };
  verifyV2: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['VerifyRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VerifyResponse'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      413: components['responses']['V2_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
      504: components['responses']['V2_JOB_TIMEOUT'];
    };
  };
  hmacV2: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['HmacRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HmacResponse'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      413: components['responses']['V2_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
      504: components['responses']['V2_JOB_TIMEOUT'];
    };
  };
  batchV2: {
    parameters: {
      query?: {
        async?: boolean | ('0' | '1' | 'true' | 'false');
        /** @description With `async=true`: the id of one of the account's enabled webhook endpoints; the job's events go to it alone, whatever its event filter. Unknown, another account's or disabled: 400 INVALID_INPUT. */
        webhook_endpoint_id?: string;
      };
      header?: {
        /** @description With `?async=true`: the same key and request return the first job (`Idempotent-Replayed: true`) instead of starting another; the same key with a different request is 422. 1-255 printable ASCII characters. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BatchRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BatchResponse'];
        };
      };
      /** @description Accepted: the job was queued (or, with a replayed Idempotency-Key, the first job is reported). */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AcceptedResponse'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      409: components['responses']['V2_CONFLICT'];
      413: components['responses']['V2_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      422: components['responses']['V2_IDEMPOTENCY_KEY_REUSED'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
      504: components['responses']['V2_JOB_TIMEOUT'];
    };
  };
  fileV2: {
    parameters: {
      query?: {
        async?: boolean | ('0' | '1' | 'true' | 'false');
        /** @description With `async=true`: the id of one of the account's enabled webhook endpoints; the job's events go to it alone, whatever its event filter. Unknown, another account's or disabled: 400 INVALID_INPUT. */
        webhook_endpoint_id?: string;
      };
      header?: {
        /** @description With `?async=true`: the same key and request return the first job (`Idempotent-Replayed: true`) instead of starting another; the same key with a different request is 422. 1-255 printable ASCII characters. */
        'Idempotency-Key'?: string;
        /** @description The hex SHA-224 the bytes must have: a match answers `verified: true`, a mismatch 422 HASH_MISMATCH */
        'X-Expected-SHA224'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /** @default 1048576 */
          chunk_size?: number;
          /**
           * @description Digest format; binary is returned base64-encoded
           * @default hex
           * @enum {string}
           */
          output?: 'hex' | 'base64' | 'binary';
          /** @description Also log the digest in the transparency log; the answer (or, with `async=true`, the completed job read from GET /v2/jobs/{id}) carries a receipt (docs/proving.md) */
          log?: boolean;
          /**
           * Format: binary
           * @description The file to hash (required, exactly one part). Up to the plan's /v2/file size limit; larger files belong in /v2/stream.
           */
          file: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FileResponse'];
        };
      };
      /** @description Accepted: the job was queued (or, with a replayed Idempotency-Key, the first job is reported). */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AcceptedResponse'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      409: components['responses']['V2_CONFLICT'];
      413: components['responses']['V2_FILE_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      422: components['responses']['V2_IDEMPOTENCY_KEY_REUSED_HASH_MISMATCH'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
      504: components['responses']['V2_JOB_TIMEOUT'];
    };
  };
  streamV2: {
    parameters: {
      query?: {
        chunk_size?: number;
        /** @description Digest format; binary is returned base64-encoded */
        output?: 'hex' | 'base64' | 'binary';
        async?: boolean | ('0' | '1' | 'true' | 'false');
        /** @description With `async=true`: the id of one of the account's enabled webhook endpoints; the job's events go to it alone, whatever its event filter. Unknown, another account's or disabled: 400 INVALID_INPUT. */
        webhook_endpoint_id?: string;
        /** @description Also log the digest in the transparency log; the answer (or, with `async=true`, the completed job read from GET /v2/jobs/{id}) carries a receipt (docs/proving.md) */
        log?: boolean;
      };
      header?: {
        /** @description With `?async=true`: the same key and request return the first job (`Idempotent-Replayed: true`) instead of starting another; the same key with a different request is 422. 1-255 printable ASCII characters. */
        'Idempotency-Key'?: string;
        /** @description The hex SHA-224 the bytes must have: a match answers `verified: true`, a mismatch 422 HASH_MISMATCH */
        'X-Expected-SHA224'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/octet-stream': string;
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['StreamResponse'];
        };
      };
      /** @description Accepted: the job was queued (or, with a replayed Idempotency-Key, the first job is reported). */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AcceptedResponse'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      409: components['responses']['V2_CONFLICT'];
      413: components['responses']['V2_FILE_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      422: components['responses']['V2_IDEMPOTENCY_KEY_REUSED_HASH_MISMATCH'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
      504: components['responses']['V2_JOB_TIMEOUT'];
    };
  };
  getJobV2: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The `job_id` of a 202 answer or of a JOB_TIMEOUT error */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JobStatus'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  createUploadV2: {
    parameters: {
      query?: never;
      header: {
        /** @description The tus protocol version: 1.0.0 (else 412) */
        'Tus-Resumable': '1.0.0';
        /** @description The upload size in bytes */
        'Upload-Length'?: string;
        /** @description `1`: the size is sent later */
        'Upload-Defer-Length'?: string;
        /** @description `filename` and `sha224` are read; values base64 */
        'Upload-Metadata'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/offset+octet-stream': string;
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          /** @description 1.0.0 */
          'Tus-Resumable'?: string;
          /** @description Bytes received and hashed (kept in the blob store where upload records outlive the node): resume from here */
          'Upload-Offset'?: string;
          /** @description When an unfinished upload and its bytes are deleted (HTTP date) */
          'Upload-Expires'?: string;
          /** @description Once the last byte is in: the `file` job that carries the digest (GET /v2/jobs/{id}) */
          'Upload-Job-Id'?: string;
          /** @description Once the last byte is in: `/v2/jobs/{id}` */
          'Upload-Job-Url'?: string;
          /** @description `/v2/uploads/{id}` */
          Location?: string;
          /** @description The caller's largest upload in bytes */
          'Tus-Max-Size'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      409: components['responses']['V2_UPLOAD_OFFSET_MISMATCH'];
      410: components['responses']['V2_UPLOAD_EXPIRED'];
      412: components['responses']['V2_TUS_VERSION_UNSUPPORTED'];
      413: components['responses']['V2_FILE_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      423: components['responses']['V2_UPLOAD_LOCKED'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      460: components['responses']['V2_CHECKSUM_MISMATCH'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  deleteUploadV2: {
    parameters: {
      query?: never;
      header: {
        /** @description The tus protocol version: 1.0.0 (else 412) */
        'Tus-Resumable': '1.0.0';
      };
      path: {
        /** @description The upload id, the last segment of its Location */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Terminated */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          /** @description 1.0.0 */
          'Tus-Resumable'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      410: components['responses']['V2_UPLOAD_EXPIRED'];
      412: components['responses']['V2_TUS_VERSION_UNSUPPORTED'];
      423: components['responses']['V2_UPLOAD_LOCKED'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  headUploadV2: {
    parameters: {
      query?: never;
      header: {
        /** @description The tus protocol version: 1.0.0 (else 412) */
        'Tus-Resumable': '1.0.0';
      };
      path: {
        /** @description The upload id, the last segment of its Location */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The upload, in headers only */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          /** @description 1.0.0 */
          'Tus-Resumable'?: string;
          /** @description Bytes received and hashed (kept in the blob store where upload records outlive the node): resume from here */
          'Upload-Offset'?: string;
          /** @description When an unfinished upload and its bytes are deleted (HTTP date) */
          'Upload-Expires'?: string;
          /** @description Once the last byte is in: the `file` job that carries the digest (GET /v2/jobs/{id}) */
          'Upload-Job-Id'?: string;
          /** @description Once the last byte is in: `/v2/jobs/{id}` */
          'Upload-Job-Url'?: string;
          /** @description The size, unless deferred */
          'Upload-Length'?: string;
          /** @description As sent */
          'Upload-Metadata'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      410: components['responses']['V2_UPLOAD_EXPIRED'];
      412: components['responses']['V2_TUS_VERSION_UNSUPPORTED'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  patchUploadV2: {
    parameters: {
      query?: never;
      header: {
        /** @description The tus protocol version: 1.0.0 (else 412) */
        'Tus-Resumable': '1.0.0';
        /** @description Where these bytes start */
        'Upload-Offset': string;
        /** @description `sha1|sha224|sha256 <base64 digest>` of this body */
        'Upload-Checksum'?: string;
        /** @description For a deferred-length upload, once known */
        'Upload-Length'?: string;
      };
      path: {
        /** @description The upload id, the last segment of its Location */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/offset+octet-stream': string;
      };
    };
    responses: {
      /** @description Stored */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          /** @description 1.0.0 */
          'Tus-Resumable'?: string;
          /** @description Bytes received and hashed (kept in the blob store where upload records outlive the node): resume from here */
          'Upload-Offset'?: string;
          /** @description When an unfinished upload and its bytes are deleted (HTTP date) */
          'Upload-Expires'?: string;
          /** @description Once the last byte is in: the `file` job that carries the digest (GET /v2/jobs/{id}) */
          'Upload-Job-Id'?: string;
          /** @description Once the last byte is in: `/v2/jobs/{id}` */
          'Upload-Job-Url'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      409: components['responses']['V2_UPLOAD_OFFSET_MISMATCH'];
      410: components['responses']['V2_UPLOAD_EXPIRED'];
      412: components['responses']['V2_TUS_VERSION_UNSUPPORTED'];
      413: components['responses']['V2_FILE_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      423: components['responses']['V2_UPLOAD_LOCKED'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      460: components['responses']['V2_CHECKSUM_MISMATCH'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  logDigestV2: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LogDigestRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReceiptResponse'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      413: components['responses']['V2_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  getReceiptV2: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The receipt id of a logged digest */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReceiptResponse'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  logConsistencyV2: {
    parameters: {
      query?: {
        /** @description The older tree size */
        from?: number | null;
        /** @description The newer tree size (default: the latest checkpoint) */
        to?: number | null;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConsistencyResponse'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  timestampV2: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/timestamp-query': string;
      };
    };
    responses: {
      /** @description A DER TimeStampResp */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/timestamp-reply': string;
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      413: components['responses']['V2_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  createBulkV2: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-ndjson': string;
        'application/json': components['schemas']['BulkUrlsRequest'] | components['schemas']['BulkS3Request'];
      };
    };
    responses: {
      /** @description Accepted: the items are stored and their chunks queued */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          Location: components['headers']['Location'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkStatus'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT_URL_NOT_ALLOWED'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      413: components['responses']['V2_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V2_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  getBulkV2: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The `id` of the 202 answer */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkStatus'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  cancelBulkV2: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The `id` of the 202 answer */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkStatus'];
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  getBulkResultsV2: {
    parameters: {
      query?: never;
      header?: {
        /** @description One byte range of the identity results (RFC 9110 §14.2): `bytes=0-999`, `bytes=1000-`, `bytes=-500` */
        Range?: string;
      };
      path: {
        /** @description The `id` of the 202 answer */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One JSON line per item, in input order */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          /** @description `bytes`: a Range is honoured (every finished job since part sizes are recorded) */
          'Accept-Ranges'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/x-ndjson': string;
        };
      };
      /** @description The requested bytes of the identity results (never gzip) */
      206: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-RateLimit-Retry-After': components['headers']['X-RateLimit-Retry-After'];
          /** @description `bytes`: a Range is honoured (every finished job since part sizes are recorded) */
          'Accept-Ranges'?: string;
          'Content-Range': components['headers']['Content-Range'];
          /** @description Bytes in this part */
          'Content-Length': number;
          [name: string]: unknown;
        };
        content: {
          'application/x-ndjson': string;
        };
      };
      400: components['responses']['V2_INVALID_INPUT'];
      401: components['responses']['V2_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V2_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      404: components['responses']['V2_NOT_FOUND'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED'];
      408: components['responses']['V2_REQUEST_TIMEOUT'];
      409: components['responses']['V2_CONFLICT'];
      416: components['responses']['V2_RANGE_NOT_SATISFIABLE'];
      429: components['responses']['V2_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V2_HEADERS_TOO_LARGE'];
      500: components['responses']['V2_INTERNAL_ERROR'];
      503: components['responses']['V2_SERVICE_UNAVAILABLE'];
    };
  };
  hashV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['V1HashRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1HashResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  verifyV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['V1VerifyRequest'] | components['schemas']['V1TextVerifyRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1VerifyResponse'] | components['schemas']['V1TextVerifyResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  fileHashV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /**
           * @description Digest format; binary is returned base64-encoded
           * @default hex
           * @enum {string}
           */
          outputFormat?: 'hex' | 'base64';
          /**
           * Format: binary
           * @description The file to hash (required, exactly one part), up to the plan's v1 file size limit.
           */
          file: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1FileHashResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_FILE_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  hmacV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['V1HmacRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1HmacResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  getUsageV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1UsageResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
    };
  };
  hashTextV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['V1TextHashRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1TextHashResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  hashFileV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /** @default 1048576 */
          chunk_size?: number;
          /**
           * Format: binary
           * @description The file to hash (required, exactly one part), up to the plan's v1 file size limit.
           */
          file: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1HashFileResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_FILE_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  hashUrlV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['V1UrlHashRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1UrlHashResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT_URL_NOT_ALLOWED'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_PAYLOAD_TOO_LARGE_FILE_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      502: components['responses']['V1_URL_FETCH_FAILED'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  verifyTextV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['V1TextVerifyRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1TextVerifyResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  verifyFileV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          hash: string;
          /**
           * Format: binary
           * @description The file to verify (required, exactly one part), up to the plan's v1 file size limit.
           */
          file: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1FileVerifyResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_FILE_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  batchHashV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['V1BatchHashRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1BatchHashResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  batchVerifyV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['V1BatchVerifyRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1BatchVerifyResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
      504: components['responses']['V1_JOB_TIMEOUT'];
    };
  };
  compareV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['V1CompareRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1CompareResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      413: components['responses']['V1_PAYLOAD_TOO_LARGE'];
      415: components['responses']['V1_UNSUPPORTED_MEDIA_TYPE'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
    };
  };
  getStatusV1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1StatusResponse'];
        };
      };
      400: components['responses']['V1_INVALID_INPUT'];
      401: components['responses']['V1_UNAUTHORIZED_EXPIRED_KEY'];
      403: components['responses']['V1_FORBIDDEN_CREDENTIAL_EXPOSED_IP_NOT_ALLOWED'];
      405: components['responses']['V1_METHOD_NOT_ALLOWED'];
      408: components['responses']['V1_REQUEST_TIMEOUT'];
      429: components['responses']['V1_RATE_LIMIT_EXCEEDED'];
      431: components['responses']['V1_HEADERS_TOO_LARGE'];
      500: components['responses']['V1_INTERNAL_ERROR'];
      503: components['responses']['V1_SERVICE_UNAVAILABLE'];
    };
  };
  authorizeOAuth: {
    parameters: {
      query: {
        response_type: 'code';
        client_id: string;
        /** @description One of the client's registered redirect URIs */
        redirect_uri?: string;
        /** @description Space-separated, from: hash:create hash:verify usage:read jobs:read */
        scope: string;
        state?: string;
        /** @description base64url(SHA-256(code_verifier)), 43 characters (PKCE, required) */
        code_challenge: string;
        code_challenge_method: 'S256';
        /** @description `false` denies: the redirect carries error=access_denied */
        allowed?: 'true' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Redirect to the client: `code`, `state` and `iss`, or `error` (RFC 6749 §4.1.2) */
      302: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description The redirect URI with the answer in its query */
          Location: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description invalid_request or invalid_client: an unknown client, a redirect URI it did not register, or a malformed request (not redirected) */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description access_denied: no valid API key in X-API-Key */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description access_denied: the key is not a production key of an Enterprise account */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description invalid_request: the form body is larger than 16 KiB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description server_error */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  authorizeOAuthForm: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          /** @enum {string} */
          response_type: 'code';
          client_id: string;
          /** @description One of the client's registered redirect URIs */
          redirect_uri?: string;
          /** @description Space-separated, from: hash:create hash:verify usage:read jobs:read */
          scope: string;
          state?: string;
          /** @description base64url(SHA-256(code_verifier)), 43 characters (PKCE, required) */
          code_challenge: string;
          /** @enum {string} */
          code_challenge_method: 'S256';
          /**
           * @description `false` denies: the redirect carries error=access_denied
           * @enum {string}
           */
          allowed?: 'true' | 'false';
        };
      };
    };
    responses: {
      /** @description Redirect to the client: `code`, `state` and `iss`, or `error` (RFC 6749 §4.1.2) */
      302: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description The redirect URI with the answer in its query */
          Location: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description invalid_request or invalid_client: an unknown client, a redirect URI it did not register, or a malformed request (not redirected) */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description access_denied: no valid API key in X-API-Key */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description access_denied: the key is not a production key of an Enterprise account */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description invalid_request: the form body is larger than 16 KiB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description server_error */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  tokenOAuth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': components['schemas']['OAuthTokenForm'];
      };
    };
    responses: {
      /** @description Tokens (RFC 6749 §5.1); `Cache-Control: no-store` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthTokenResponse'];
        };
      };
      /** @description invalid_request (a missing, repeated or malformed parameter, or a body that is not form-encoded), invalid_client (wrong credentials in the body), invalid_grant, invalid_scope, unsupported_grant_type */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description invalid_client: unknown client or wrong secret, sent with HTTP Basic or not at all */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Basic realm="sha224d" */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description invalid_request: the form body is larger than 16 KiB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description server_error */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  revokeOAuth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': components['schemas']['OAuthTokenLookupForm'];
      };
    };
    responses: {
      /** @description Revoked (empty body) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description invalid_request (a missing, repeated or malformed parameter, or a body that is not form-encoded), invalid_client (wrong credentials in the body), invalid_grant, invalid_scope, unsupported_grant_type */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description invalid_client: unknown client or wrong secret, sent with HTTP Basic or not at all */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Basic realm="sha224d" */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description invalid_request: the form body is larger than 16 KiB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description server_error */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  introspectOAuth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': components['schemas']['OAuthTokenLookupForm'];
      };
    };
    responses: {
      /** @description The token's state */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthIntrospectionResponse'];
        };
      };
      /** @description invalid_request (a missing, repeated or malformed parameter, or a body that is not form-encoded), invalid_client (wrong credentials in the body), invalid_grant, invalid_scope, unsupported_grant_type */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description invalid_client: unknown client or wrong secret, sent with HTTP Basic or not at all */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Basic realm="sha224d" */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description invalid_request: the form body is larger than 16 KiB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description server_error */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  getAuthorizationServerMetadata: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Public, cacheable for an hour, `Access-Control-Allow-Origin: *` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuthorizationServerMetadata'];
        };
      };
      /** @description invalid_request: the Host header is malformed (only when PUBLIC_URL is not set) */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  getOpenIdConfiguration: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Public, cacheable for an hour, `Access-Control-Allow-Origin: *` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuthorizationServerMetadata'];
        };
      };
      /** @description invalid_request: the Host header is malformed (only when PUBLIC_URL is not set) */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Alive */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
    };
  };
  getReadiness: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ready */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
      /** @description Not ready: `checks` names what failed */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
    };
  };
  getOpenApiDocument: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document; its servers name PUBLIC_URL, else the origin the request reached */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Revalidate with If-None-Match */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Not modified (If-None-Match) */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      405: components['responses']['V2_METHOD_NOT_ALLOWED_PUBLIC'];
    };
  };
  getAsyncApiDocument: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The AsyncAPI document; its servers name the realtime origin */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Revalidate with If-None-Match */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Not modified (If-None-Match) */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      405: components['responses']['V2_METHOD_NOT_ALLOWED_PUBLIC'];
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The Prometheus text exposition (`Cache-Control: no-store`) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      401: components['responses']['V2_UNAUTHORIZED_PUBLIC'];
      404: components['responses']['V2_NOT_FOUND_PUBLIC'];
    };
  };
  getSdkScript: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Minified script; brotli or gzip as Accept-Encoding allows (`Vary: Accept-Encoding`) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description One per content coding */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'text/javascript': string;
        };
      };
      /** @description Not modified (If-None-Match) */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      405: components['responses']['V2_METHOD_NOT_ALLOWED_PUBLIC'];
    };
  };
  getSdkModule: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Minified ES module; brotli or gzip as Accept-Encoding allows (`Vary: Accept-Encoding`) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description One per content coding */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'text/javascript': string;
        };
      };
      /** @description Not modified (If-None-Match) */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      405: components['responses']['V2_METHOD_NOT_ALLOWED_PUBLIC'];
    };
  };
  getSdkManifest: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The manifest (`Cache-Control: no-cache`) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description One per content coding */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SdkManifest'];
        };
      };
      /** @description Not modified (If-None-Match) */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      405: components['responses']['V2_METHOD_NOT_ALLOWED_PUBLIC'];
    };
  };
  getSdkAsset: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description `sha224.<hash>.min.js` or `sha224.<hash>.mjs` */
        asset: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The library; brotli or gzip as Accept-Encoding allows (`Vary: Accept-Encoding`) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description One per content coding */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'text/javascript': string;
        };
      };
      /** @description Not modified (If-None-Match) */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      404: components['responses']['V2_NOT_FOUND_PUBLIC'];
      405: components['responses']['V2_METHOD_NOT_ALLOWED_PUBLIC'];
    };
  };
  getLogCheckpoint: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The signed checkpoint */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description How long the answer may be cached */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  getLogTile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The tile path below /log/tile/, slashes included */
        tile: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tile */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description How long the answer may be cached */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': string;
        };
      };
      404: components['responses']['V2_NOT_FOUND_PUBLIC'];
    };
  };
  getLogKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The log key */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description How long the answer may be cached */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LogKey'];
        };
      };
    };
  };
  getTsaCertificate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The certificate */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description How long the answer may be cached */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/x-pem-file': string;
        };
      };
    };
  };
}
