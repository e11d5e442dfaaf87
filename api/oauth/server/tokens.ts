/**
 * The OAuth secret helpers live in shared/oauth/tokens.ts, below both the OAuth server and the
 * management API's OAuth-app operations (docs/decisions.md "Code layout"); the OAuth model's files
 * (model*.ts) read them through this name.
 */
export * from '../../../shared/oauth/tokens.js';
