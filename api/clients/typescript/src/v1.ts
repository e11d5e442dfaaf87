/** One method per /v1 operation, Set A and Set B (docs/api.md "v1 Set A", "v1 Set B"; docs/v1.md). */
import { idempotencyKeyFor, type ClientContext, type RequestOptions } from './context.js';
import type {
  V1BatchHashRequest,
  V1BatchHashResponse,
  V1BatchVerifyRequest,
  V1BatchVerifyResponse,
  V1CompareRequest,
  V1CompareResponse,
  V1FileFields,
  V1FileHashResponse,
  V1FileVerifyFields,
  V1FileVerifyResponse,
  V1HashFileFields,
  V1HashFileResponse,
  V1HashRequest,
  V1HashResponse,
  V1HmacRequest,
  V1HmacResponse,
  V1StatusResponse,
  V1TextHashRequest,
  V1TextHashResponse,
  V1TextVerifyRequest,
  V1TextVerifyResponse,
  V1UrlHashRequest,
  V1UrlHashResponse,
  V1UsageResponse,
  V1VerifyRequest,
  V1VerifyResponse,
} from './types.js';
import { multipartBody, type FieldValue } from './upload/multipart.js';
import { toUploadSource, type SourceOptions, type UploadInput, type UploadProgress } from './upload/source.js';
import { getJson, postJson } from './requests.js';

export interface V1UploadOptions extends RequestOptions, SourceOptions {
  onProgress?: (progress: UploadProgress) => void;
  idempotencyKey?: string;
}

export class V1Api {
  constructor(private readonly context: ClientContext) {}

  // ---- Set A ----------------------------------------------------------------------------------

  /** POST /v1/hash. */
  hash(request: V1HashRequest, options?: RequestOptions): Promise<V1HashResponse> {
    return postJson(this.context, 'v1.hash', '/v1/hash', request, options);
  }

  /** POST /v1/verify (Set A body; answers `verified`). */
  verify(request: V1VerifyRequest, options?: RequestOptions): Promise<V1VerifyResponse> {
    return postJson(this.context, 'v1.verify', '/v1/verify', request, options);
  }

  /** POST /v1/file/hash: multipart upload (Set A). */
  fileHash(input: UploadInput, options: V1UploadOptions & V1FileFields = {}): Promise<V1FileHashResponse> {
    return this.upload('v1.fileHash', '/v1/file/hash', input, { outputFormat: options.outputFormat }, options);
  }

  /** POST /v1/hmac. */
  hmac(request: V1HmacRequest, options?: RequestOptions): Promise<V1HmacResponse> {
    return postJson(this.context, 'v1.hmac', '/v1/hmac', request, options);
  }

  /** GET /v1/usage. */
  usage(options?: RequestOptions): Promise<V1UsageResponse> {
    return getJson(this.context, 'v1.usage', '/v1/usage', options);
  }

  // ---- Set B ----------------------------------------------------------------------------------

  /** POST /v1/hash/text. */
  hashText(request: V1TextHashRequest, options?: RequestOptions): Promise<V1TextHashResponse> {
    return postJson(this.context, 'v1.hashText', '/v1/hash/text', request, options);
  }

  /** POST /v1/hash/file: multipart upload (Set B). */
  hashFile(input: UploadInput, options: V1UploadOptions & V1HashFileFields = {}): Promise<V1HashFileResponse> {
    return this.upload('v1.hashFile', '/v1/hash/file', input, { chunk_size: options.chunk_size }, options);
  }

  /** POST /v1/hash/url: the service fetches the URL (public addresses only) and hashes its body. */
  hashUrl(request: V1UrlHashRequest, options?: RequestOptions): Promise<V1UrlHashResponse> {
    return postJson(this.context, 'v1.hashUrl', '/v1/hash/url', request, options);
  }

  /** POST /v1/verify/text. */
  verifyText(request: V1TextVerifyRequest, options?: RequestOptions): Promise<V1TextVerifyResponse> {
    return postJson(this.context, 'v1.verifyText', '/v1/verify/text', request, options);
  }

  /** POST /v1/verify/file: multipart upload with the expected `hash`. */
  verifyFile(input: UploadInput, options: V1UploadOptions & V1FileVerifyFields): Promise<V1FileVerifyResponse> {
    return this.upload('v1.verifyFile', '/v1/verify/file', input, { hash: options.hash }, options);
  }

  /** POST /v1/batch/hash: up to 1000 texts. */
  batchHash(request: V1BatchHashRequest, options?: RequestOptions): Promise<V1BatchHashResponse> {
    return postJson(this.context, 'v1.batchHash', '/v1/batch/hash', request, options);
  }

  /** POST /v1/batch/verify: up to 1000 texts with their expected hashes. */
  batchVerify(request: V1BatchVerifyRequest, options?: RequestOptions): Promise<V1BatchVerifyResponse> {
    return postJson(this.context, 'v1.batchVerify', '/v1/batch/verify', request, options);
  }

  /** POST /v1/compare: two hex hashes, compared in constant time by the service. */
  compare(request: V1CompareRequest, options?: RequestOptions): Promise<V1CompareResponse> {
    return postJson(this.context, 'v1.compare', '/v1/compare', request, options);
  }

  /** GET /v1/status. */
  status(options?: RequestOptions): Promise<V1StatusResponse> {
    return getJson(this.context, 'v1.status', '/v1/status', options);
  }

  private async upload<T>(
    operation: string,
    path: string,
    input: UploadInput,
    fields: Record<string, FieldValue>,
    options: V1UploadOptions,
  ): Promise<T> {
    const source = await toUploadSource(input, options, this.context.platform);
    const key = idempotencyKeyFor(this.context, options.idempotencyKey);
    const reply = await this.context.transport.request({
      operation,
      method: 'POST',
      path,
      generation: 'v1',
      body: multipartBody(source, fields, options.onProgress),
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
      retryable: key !== undefined,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    return reply.body as T;
  }
}
