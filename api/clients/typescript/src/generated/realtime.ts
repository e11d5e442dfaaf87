/**
 * Generated from the /v2/ws message schemas (api/schemas/ws.ts) by api/clients/typescript/scripts/generate-types.ts.
 * Do not edit: run `npm run generate -w @sha224d/client`.
 */
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    WsHashMessage: {
      /** @enum {string} */
      action: 'hash';
      id: string;
      data: string;
      /**
       * @default {
       *       "encoding": "utf8",
       *       "output": "hex"
       *     }
       */
      options?: {
        /**
         * @description Encoding of the input string
         * @default utf8
         * @enum {string}
         */
        encoding?: 'utf8' | 'hex' | 'base64';
        /**
         * @description Digest format; binary is returned base64-encoded
         * @default hex
         * @enum {string}
         */
        output?: 'hex' | 'base64' | 'binary';
      };
    };
    WsHashReply: {
      id: string;
      /** @enum {boolean} */
      success: true;
      hash: string;
      /** @enum {string} */
      algorithm: 'SHA-224';
      encoding: string;
      timestamp: string;
      processing_time_ms: number;
    };
    WsErrorReply: {
      id: string | null;
      /** @enum {boolean} */
      success: false;
      error: {
        code: string;
        message: string;
        details: string;
        retry_after?: number;
      };
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
