/**
 * The client's address, judged the way Express judges `req.ip` (its "trust proxy" setting, from
 * TRUST_PROXY): the socket's peer, unless that peer is a trusted proxy, in which case the next
 * address of X-Forwarded-For to the left, and so on. For requests that never pass through Express
 * (WebSocket upgrades), so both see one address.
 */
import type { IncomingMessage } from 'node:http';
import express from 'express';

export type TrustFn = (address: string, hop: number) => boolean;

/** TRUST_PROXY as Express reads it: 'true', 'false', a hop count, or addresses/subnets/names (loopback, …). */
export function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Express's own compiled trust function for TRUST_PROXY, so the rules cannot differ. */
export function compileTrust(value: string): TrustFn {
  return express().set('trust proxy', parseTrustProxy(value)).get('trust proxy fn') as TrustFn;
}

/** The first untrusted address from the socket outwards (proxy-addr's algorithm, which Express uses). */
export function clientAddress(req: IncomingMessage, trust: TrustFn): string | undefined {
  const socket = req.socket.remoteAddress;
  if (socket === undefined) return undefined;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const chain = [socket, ...forwarded];
  for (let hop = 0; hop < chain.length - 1; hop++) if (!trust(chain[hop]!, hop)) return chain[hop];
  return chain[chain.length - 1];
}
