/** The public API both builds share (index.ts for browsers, node.ts for Node). */
export type { Credentials, TokenSource } from './auth.js';
export { DEFAULT_BASE_URL, type ClientOptions } from './client.js';
export type { RequestOptions } from './context.js';
export {
  ApiError,
  AuthenticationError,
  ERROR_STATUSES,
  InvalidRequestError,
  JobTimeoutError,
  NetworkError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  Sha224dError,
  TooLargeError,
  WaitTimeoutError,
  type ErrorDetails,
} from './errors.js';
export type { CompletedJob, JobsApi, SubmitOptions, WaitOptions } from './jobs.js';
export type { SocketIoConnect } from './platform.js';
export type { HashSession, SessionOptions, WsErrorReply, WsHashOptions, WsHashReply } from './realtime/session.js';
export type { RetryEvent, RetryOptions } from './retry.js';
export type * from './types.js';
export type { UploadInput, UploadProgress } from './upload/source.js';
export { RESUMABLE_CHUNK_BYTES, type ResumableInput, type ResumableOptions, type ResumableResult } from './upload/resumable.js';
export type { RangedSource } from './platform.js';
export { FILE_ENDPOINT_MAX_BYTES, type AutoUploadOptions, type UploadOptions } from './upload/upload.js';
export type { V1Api, V1UploadOptions } from './v1.js';
export type { V2Api, V2Jobs } from './v2.js';
export type { BulkApi, BulkItem, BulkItems, BulkResultLine, BulkWaitOptions } from './bulk.js';
export { ReceiptVerificationError, verifyReceipt, type ReceiptInput, type VerifiedReceipt, type VerifyReceiptOptions } from './receipt.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookEvent, type WebhookHeaders } from './webhooks.js';
