import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { buildConnector } from 'undici';
import { checkAddress, type AddressPolicyOptions, type AddressVerdict, type DeniedRange } from './address-policy.js';

/**
 * The connection-level half of the SSRF policy: an undici connector that checks every address
 * it is about to dial. Three checks, each covering what the one before cannot:
 *
 *  1. Literal-IP hosts are checked before `net.connect`, because Node skips the `lookup` hook
 *     when the host is already an IP (net.js `lookupAndConnect`).
 *  2. Names go through `guardLookup`: the hook that net.connect calls and whose answers are the
 *     addresses it dials. Checking the answers here, rather than resolving once up front and
 *     dialing later, leaves no gap for DNS rebinding between "checked" and "dialed".
 *  3. After connecting, the socket's remote address is checked again and the socket destroyed
 *     if denied. Redundant by construction; it is there so that a future change to 1 or 2
 *     fails closed instead of open.
 *
 * No proxy is ever used (undici's Agent ignores HTTP_PROXY): a proxy resolves names itself,
 * which would put the dialed address out of this module's sight.
 */

/** Thrown through undici by the connector; fetch-and-hash turns it into URL_NOT_ALLOWED. */
export class AddressDeniedError extends Error {
  readonly code = 'ERR_SSRF_ADDRESS_DENIED';

  constructor(readonly rule: DeniedRange) {
    // No address in the message: this error can surface in logs next to user-visible text.
    super(`destination address denied by SSRF policy (${rule})`);
    this.name = 'AddressDeniedError';
  }
}

export interface GuardOptions extends AddressPolicyOptions {
  /** DNS resolver; defaults to dns.lookup (getaddrinfo, honouring /etc/hosts). Injected in tests. */
  lookup?: LookupFunction | undefined;
  /** Connect timeout per attempt, milliseconds. */
  connectTimeoutMs: number;
}

const systemLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, callback);
};

function normalise(answer: string | LookupAddress[], family: number | undefined): LookupAddress[] {
  if (Array.isArray(answer)) return answer;
  return [{ address: answer, family: family ?? isIP(answer) }];
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  err.code = 'ENOTFOUND';
  return err;
}

/**
 * Wrap a resolver so that a name is refused when ANY of its answers is denied. Refusing the name
 * (not just filtering the bad answers out) is deliberate: a public name that also resolves to a
 * private address is a rebinding or misconfiguration signal, and filtering would make the result
 * depend on answer order.
 *
 * Always asks the inner resolver for all answers, and replies in the shape the caller asked for:
 * net.connect asks for `all: true` when autoSelectFamily is on (the Node 20 default) and for one
 * address otherwise.
 */
export function guardLookup(policy: AddressPolicyOptions, inner: LookupFunction = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    inner(hostname, { ...options, all: true }, (err, answer, family) => {
      if (err) {
        callback(err, '');
        return;
      }
      const addresses = normalise(answer, family);
      const first = addresses[0];
      if (first === undefined) {
        callback(notFound(hostname), '');
        return;
      }
      for (const { address } of addresses) {
        const verdict = checkAddress(address, policy);
        if (!verdict.allowed) {
          callback(new AddressDeniedError(verdict.rule), '');
          return;
        }
      }
      if (options.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

function remoteVerdict(socket: Socket, policy: AddressPolicyOptions): AddressVerdict {
  const remote = socket.remoteAddress;
  return remote === undefined ? { allowed: false, rule: 'invalid' } : checkAddress(remote, policy);
}

/** An undici `connect` function enforcing the policy on every connection it opens. */
export function guardedConnector(options: GuardOptions): buildConnector.connector {
  const policy: AddressPolicyOptions = {
    allowLoopback: options.allowLoopback === true,
    ...(options.allowCidrs === undefined ? {} : { allowCidrs: options.allowCidrs }),
  };
  const connect = buildConnector({
    lookup: guardLookup(policy, options.lookup),
    timeout: options.connectTimeoutMs,
  });
  return function guardedConnect(target, callback) {
    if (isIP(target.hostname) !== 0) {
      const verdict = checkAddress(target.hostname, policy);
      if (!verdict.allowed) {
        callback(new AddressDeniedError(verdict.rule), null);
        return;
      }
    }
    connect(target, (...args) => {
      const [err, socket] = args;
      if (err !== null) {
        callback(err, null);
        return;
      }
      const verdict = remoteVerdict(socket, policy);
      if (!verdict.allowed) {
        socket.destroy();
        callback(new AddressDeniedError(verdict.rule), null);
        return;
      }
      callback(null, socket);
    });
  };
}
