/**
 * The SDK's request and response types, read from the generated OpenAPI types
 * (generated/openapi.ts) by path and method, so a change to the service's schemas reaches the SDK
 * by regenerating that one file. No local overrides: the document states every shape exactly.
 */
import type { paths } from './generated/openapi.js';

type Method = 'get' | 'post';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type MultipartOf<T> = T extends { content: { 'multipart/form-data': infer Body } } ? Body : never;

/** The JSON body a POST of `P` sends. */
export type RequestBody<P extends keyof paths> = JsonOf<NonNullable<Operation<P, 'post'>['requestBody']>>;
/** The JSON body of a 200 answer to `M P`. */
export type ResponseBody<P extends keyof paths, M extends Method = 'post'> = Operation<P, M>['responses'] extends { 200: infer Ok }
  ? JsonOf<Ok>
  : never;
/** The query parameters of `M P`. */
export type QueryOf<P extends keyof paths, M extends Method = 'post'> = NonNullable<Operation<P, M>['parameters']['query']>;
/** The text fields of a multipart upload (everything but the file part itself). */
export type UploadFields<P extends keyof paths> = Omit<MultipartOf<NonNullable<Operation<P, 'post'>['requestBody']>>, 'file'>;

// ---- v2 -------------------------------------------------------------------------------------

export type HashRequest = RequestBody<'/v2/hash'>;
export type HashResponse = ResponseBody<'/v2/hash'>;
export type VerifyRequest = RequestBody<'/v2/verify'>;
export type VerifyResponse = ResponseBody<'/v2/verify'>;
export type HmacRequest = RequestBody<'/v2/hmac'>;
export type HmacResponse = ResponseBody<'/v2/hmac'>;
export type BatchRequest = RequestBody<'/v2/batch'>;
export type BatchResponse = ResponseBody<'/v2/batch'>;
export type FileFields = UploadFields<'/v2/file'>;
export type FileResponse = ResponseBody<'/v2/file'>;
export type StreamQuery = Omit<QueryOf<'/v2/stream'>, 'async'>;
export type StreamResponse = ResponseBody<'/v2/stream'>;
/** 202 answer of an `?async=true` submission (batch, file and stream answer the same). */
export type AcceptedResponse = JsonOf<Operation<'/v2/batch', 'post'>['responses'][202]>;
export type JobState = AcceptedResponse['status'];
/** POST /v2/bulk with a JSON body: a list of URLs or an S3 bucket (items go as NDJSON: client.bulk.create). */
export type BulkJsonRequest = RequestBody<'/v2/bulk'>;
export type BulkStatus = ResponseBody<'/v2/bulk/{id}', 'get'>;
export type ErrorResponse = JsonOf<Operation<'/v2/hash', 'post'>['responses'][400]>;

/** What the synchronous call would have answered, as a finished job reports it. */
export type JobResult = BatchResponse | FileResponse | StreamResponse;

/**
 * GET /v2/jobs/{id}: the job's state; when completed, the body its synchronous call would have
 * returned (a batch, file or stream body, or a digest for a job fetched after JOB_TIMEOUT); when
 * failed, the error.
 */
export type JobStatus = ResponseBody<'/v2/jobs/{id}', 'get'>;

// ---- v1 Set A ---------------------------------------------------------------------------------

export type V1HashRequest = RequestBody<'/v1/hash'>;
export type V1HashResponse = ResponseBody<'/v1/hash'>;
export type V1VerifyRequest = MemberWith<RequestBody<'/v1/verify'>, { data: string }>;
export type V1VerifyResponse = MemberWith<ResponseBody<'/v1/verify'>, { verified: boolean }>;
export type V1FileFields = UploadFields<'/v1/file/hash'>;
export type V1FileHashResponse = ResponseBody<'/v1/file/hash'>;
export type V1HmacRequest = RequestBody<'/v1/hmac'>;
export type V1HmacResponse = ResponseBody<'/v1/hmac'>;
export type V1UsageResponse = ResponseBody<'/v1/usage', 'get'>;

/** The member of a documented union that has the given fields (POST /v1/verify takes either set's body). */
type MemberWith<Union, Has> = Extract<Union, Has>;

// ---- v1 Set B ---------------------------------------------------------------------------------

export type V1TextHashRequest = RequestBody<'/v1/hash/text'>;
export type V1TextHashResponse = ResponseBody<'/v1/hash/text'>;
export type V1HashFileFields = UploadFields<'/v1/hash/file'>;
export type V1HashFileResponse = ResponseBody<'/v1/hash/file'>;
export type V1UrlHashRequest = RequestBody<'/v1/hash/url'>;
export type V1UrlHashResponse = ResponseBody<'/v1/hash/url'>;
export type V1TextVerifyRequest = RequestBody<'/v1/verify/text'>;
export type V1TextVerifyResponse = ResponseBody<'/v1/verify/text'>;
export type V1FileVerifyFields = UploadFields<'/v1/verify/file'>;
export type V1FileVerifyResponse = ResponseBody<'/v1/verify/file'>;
export type V1BatchHashRequest = RequestBody<'/v1/batch/hash'>;
export type V1BatchHashResponse = ResponseBody<'/v1/batch/hash'>;
export type V1BatchVerifyRequest = RequestBody<'/v1/batch/verify'>;
export type V1BatchVerifyResponse = ResponseBody<'/v1/batch/verify'>;
export type V1CompareRequest = RequestBody<'/v1/compare'>;
export type V1CompareResponse = ResponseBody<'/v1/compare'>;
export type V1StatusResponse = ResponseBody<'/v1/status', 'get'>;
export type V1ErrorResponse = JsonOf<Operation<'/v1/hash', 'post'>['responses'][400]>;
