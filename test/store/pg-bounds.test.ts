/** The PostgreSQL bounds: their settings, and which failures mean "the database is unavailable". */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.js';
import { databaseOptionsFromConfig } from '../../shared/store/database.js';
import { DEFAULT_PG_BOUNDS, validatePgBounds } from '../../shared/store/pg-bounds.js';
import { isDatabaseUnavailable } from '../../shared/store/pg-pool.js';

describe('PostgreSQL bounds settings', () => {
  it('defaults reach the store options', () => {
    expect(databaseOptionsFromConfig(loadConfig({ DATABASE_URL: 'postgres://u@db/x' })).pgBounds).toEqual({
      connectTimeoutMs: 3000,
      statementTimeoutMs: 5000,
      queryTimeoutMs: 6000,
      idleInTransactionTimeoutMs: 30_000,
      requestTimeoutMs: 5000,
    });
    expect(DEFAULT_PG_BOUNDS.queryTimeoutMs).toBeGreaterThan(DEFAULT_PG_BOUNDS.statementTimeoutMs);
  });

  it('are read from the environment', () => {
    const config = loadConfig({
      PG_CONNECT_TIMEOUT_MS: '800',
      PG_STATEMENT_TIMEOUT_MS: '1000',
      PG_QUERY_TIMEOUT_MS: '1500',
      PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: '2000',
      PG_REQUEST_TIMEOUT_MS: '1200',
    });
    expect(databaseOptionsFromConfig(config).pgBounds).toEqual({
      connectTimeoutMs: 800,
      statementTimeoutMs: 1000,
      queryTimeoutMs: 1500,
      idleInTransactionTimeoutMs: 2000,
      requestTimeoutMs: 1200,
    });
  });

  it.each([
    ['PG_CONNECT_TIMEOUT_MS', '0'],
    ['PG_STATEMENT_TIMEOUT_MS', 'slow'],
    ['PG_QUERY_TIMEOUT_MS', '-1'],
    ['PG_IDLE_IN_TRANSACTION_TIMEOUT_MS', '999'],
    ['PG_REQUEST_TIMEOUT_MS', '50'],
  ])('%s=%s is refused with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: `));
  });

  it('the client-side query timeout may not be below the statement timeout', () => {
    expect(() => loadConfig({ PG_STATEMENT_TIMEOUT_MS: '5000', PG_QUERY_TIMEOUT_MS: '4000' })).toThrow(
      'Invalid configuration: PG_QUERY_TIMEOUT_MS must not be below PG_STATEMENT_TIMEOUT_MS',
    );
    expect(() => validatePgBounds({ ...DEFAULT_PG_BOUNDS, queryTimeoutMs: 10 })).toThrow(/queryTimeoutMs/);
    expect(() => validatePgBounds({ ...DEFAULT_PG_BOUNDS, connectTimeoutMs: 1.5 })).toThrow(/connectTimeoutMs must be a positive integer/);
  });
});

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string) => Object.assign(new Error('x'), { code });

  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['class 08 connection exception', withCode('08006')],
    ['too many connections', withCode('53300')],
    ['statement timeout (query_canceled)', withCode('57014')],
    ['admin shutdown', withCode('57P01')],
    ['cannot connect now (starting up)', withCode('57P03')],
    ['idle in transaction timeout', withCode('25P03')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['connection lost', new Error('Connection terminated unexpectedly')],
    ['client query timeout', new Error('Query read timeout')],
  ])('%s → unavailable', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['unique violation', withCode('23505')],
    ['syntax error', withCode('42601')],
    ['serialization failure (the caller retries)', withCode('40001')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('%s → not unavailable', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
